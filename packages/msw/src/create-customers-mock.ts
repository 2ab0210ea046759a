import {
  createApiHandler,
  createCustomerService,
  MemoryCustomerStore,
  type Clock,
  type Customer,
} from '@customers-api/core';
import { http, type HttpHandler } from 'msw';
import { pathBelow, toApiRequest } from './adapt-request.js';
import { toHttpResponse } from './adapt-response.js';
import { mountPoint } from './base-url.js';
import { forcedAnswer } from './forced-answer.js';
import { type ForcedResponse, ForcedResponses } from './forced-responses.js';
import { type OperationId, operationFor } from './operation.js';
import { applySeeds, checkSeeds, type CustomerSeed } from './seed.js';
import { createSellerDirectory, type MockSeller, type SellerSeed } from './sellers.js';

export interface CustomersMockOptions {
  /** Where the API lives; default `'*'` (any origin). Example: `'http://127.0.0.1:3000'`. */
  baseUrl?: string;
  /**
   * Sellers (API keys) known from the start. Omitted: any well-formed key (`sk_live_` + 48 letters and
   * digits) is accepted as one default seller, {@link CustomersMock.defaultSeller}.
   */
  sellers?: SellerSeed[];
  /** The plan limit of the default seller and of sellers that name none; default 100 (the free plan). */
  customerLimit?: number;
  /** Customers that exist from the start, created through core's rules; `reset()` brings them back. */
  seed?: CustomerSeed[];
  /** Timestamps for created_at/updated_at; defaults to a strictly increasing wall clock. */
  clock?: Clock;
  /** Called with any fault that is not an API error (answered 500); defaults to `console.error`. */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

export interface CustomersMock {
  /** Pass to `setupServer(...mock.handlers)` or `setupWorker(...mock.handlers)`. */
  handlers: HttpHandler[];
  /** The sellers given in the options, with generated keys and ids filled in. */
  sellers: MockSeller[];
  /** Without a `sellers` option: the seller behind every well-formed key (its `apiKey` is one such key). */
  defaultSeller: MockSeller | undefined;
  /** Resolves with the customers of the `seed` option once created; rejects with a `SeedError` if one was refused. */
  ready: Promise<Customer[]>;
  /** Creates customers through core's rules; rejects with a `SeedError` naming the first refused one. */
  seed(seeds: CustomerSeed | CustomerSeed[]): Promise<Customer[]>;
  /** Forces the next request(s) to an operation to fail, or to wait first. Forced failures store nothing. */
  nextResponse(operation: OperationId, forced: ForcedResponse): void;
  /** Registers another seller; resolves once its key authenticates. */
  addSeller(seed?: SellerSeed): Promise<MockSeller>;
  /** Revokes a key: requests with it answer 401 from then on. */
  revokeKey(apiKey: string): Promise<void>;
  /** The customers and idempotency records, for inspection between requests. */
  store: MemoryCustomerStore;
  /**
   * Back to the start: the `seed` option's customers (same ids) and nothing else; forced responses are
   * dropped; sellers and revocations stay. Requests made meanwhile wait for it.
   */
  reset(): Promise<void>;
}

/**
 * Stateful MSW handlers for the Customer Management API. They run core's rules over an in-memory store, so
 * they answer exactly as the reference server does: validation from openapi.yaml, defaults, 404 tenancy,
 * 409 duplicate emails, 403 plan limit, idempotent creates, 401/413/415 and X-Request-Id.
 *
 * @example
 * const mock = createCustomersMock({
 *   baseUrl: 'http://127.0.0.1:3000',
 *   seed: [{ customers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }] }],
 * });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const [ada] = await mock.ready;
 * mock.nextResponse('getCustomer', { status: 503, headers: { 'Retry-After': '1' } });
 * await fetch(`http://127.0.0.1:3000/api/customers/${ada.id}`, {
 *   headers: { 'X-API-Key': mock.defaultSeller!.apiKey }, // any sk_live_ + 48 alphanumerics works
 * }); // 503, then 200 on the next try
 */
export function createCustomersMock(options: CustomersMockOptions = {}): CustomersMock {
  const store = new MemoryCustomerStore();
  const directory = createSellerDirectory({ sellers: options.sellers, customerLimit: options.customerLimit });
  const service = createCustomerService({ store, ...(options.clock && { clock: options.clock }) });
  const forced = new ForcedResponses();
  const handle = createApiHandler({
    service,
    lookupKey: directory.lookupKey,
    onUnexpectedError:
      options.onUnexpectedError ??
      ((error, requestId) => console.error(`[customers-api/msw] ${requestId}`, error)),
  });

  // Seeding and resets run one after another; requests wait for those already queued.
  let queue: Promise<unknown> = Promise.resolve();
  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  }

  const seeds = options.seed ?? [];
  checkSeeds(seeds, directory.find);
  const ready = enqueue(() => applySeeds(service, seeds, directory.find));
  // A refused seed surfaces through `ready` and through every request (MSW answers the throw with a 500).
  ready.catch(() => undefined);

  const mount = mountPoint(options.baseUrl ?? '*');
  const resolver = async ({ request }: { request: Request }) => {
    const operation = operationFor(request.method, pathBelow(request.url, mount.basePath));
    const force = operation && forced.take(operation);
    await queue;
    await ready;
    const apiRequest = await toApiRequest(request, mount.basePath);
    if (force) {
      const answer = await forcedAnswer(force, apiRequest, directory);
      if (answer) return answer;
    }
    const response = await handle(apiRequest);
    return toHttpResponse({ ...response, headers: { ...response.headers, ...force?.headers } });
  };

  return {
    handlers: [http.all(mount.collection, resolver), http.all(mount.items, resolver)],
    sellers: directory.sellers,
    defaultSeller: directory.defaultSeller,
    ready,
    seed: (more) =>
      enqueue(async () => {
        const list = Array.isArray(more) ? more : [more];
        checkSeeds(list, directory.find);
        return applySeeds(service, list, directory.find);
      }),
    nextResponse: (operation, response) => forced.push(operation, response),
    async addSeller(seed) {
      const { seller, done } = directory.register(seed);
      await done;
      return seller;
    },
    revokeKey: (apiKey) => directory.revoke(apiKey),
    store,
    reset() {
      forced.clear();
      return enqueue(async () => {
        store.clear();
        for (const customer of await ready.catch(() => [])) {
          // Already accepted by core once; put back as it was (same id and timestamps).
          await store.insertCustomer(customer, { customerLimit: Number.POSITIVE_INFINITY });
        }
      });
    },
  };
}
