import {
  createApiHandler,
  createCustomerService,
  generateApiKey,
  MemoryCustomerStore,
  MemoryKeyRegistry,
  type Clock,
  type SellerContext,
} from '@customers-api/core';
import { http, type HttpHandler } from 'msw';
import { toApiRequest } from './adapt-request.js';
import { toHttpResponse } from './adapt-response.js';
import { mountPoint } from './base-url.js';

/** A seller the mock knows: its API key, id and plan limit. Omitted fields are generated. */
export interface SellerSeed {
  apiKey?: string;
  sellerId?: string;
  /** The plan's customer limit; defaults to 100. */
  customerLimit?: number;
}

export interface MockSeller extends SellerContext {
  apiKey: string;
}

export interface CustomersMockOptions {
  /** Where the API lives; default `'*'` (any origin). Example: `'http://127.0.0.1:3000'`. */
  baseUrl?: string;
  /** Sellers (API keys) known from the start. */
  sellers?: SellerSeed[];
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
  /** Registers another seller; resolves once its key authenticates. */
  addSeller(seed?: SellerSeed): Promise<MockSeller>;
  /** Revokes a key: requests with it answer 401 from then on. */
  revokeKey(apiKey: string): Promise<void>;
  /** The customers and idempotency records, for inspection between requests. */
  store: MemoryCustomerStore;
  /** Forgets every customer and idempotency record; sellers stay. */
  reset(): void;
}

const DEFAULT_CUSTOMER_LIMIT = 100;

/**
 * Stateful MSW handlers for the Customer Management API. They run core's rules over an in-memory store, so
 * they answer exactly as the reference server does: validation from openapi.yaml, defaults, 404 tenancy,
 * 409 duplicate emails, 403 plan limit, idempotent creates, 401/413/415 and X-Request-Id.
 *
 * @example
 * const mock = createCustomersMock({ baseUrl: 'http://127.0.0.1:3000', sellers: [{ customerLimit: 5 }] });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * await fetch('http://127.0.0.1:3000/api/customers', {
 *   method: 'POST',
 *   headers: { 'X-API-Key': mock.sellers[0].apiKey, 'Content-Type': 'application/json' },
 *   body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }),
 * }); // 201
 */
export function createCustomersMock(options: CustomersMockOptions = {}): CustomersMock {
  const store = new MemoryCustomerStore();
  const keys = new MemoryKeyRegistry();
  // Keys are hashed (Web Crypto is async) before they are stored; lookups wait for pending ones so a
  // request sent right after creating the mock already authenticates.
  let registering: Promise<unknown> = Promise.resolve();

  function register(seed: SellerSeed = {}): { seller: MockSeller; done: Promise<void> } {
    const seller: MockSeller = {
      apiKey: seed.apiKey ?? generateApiKey(),
      sellerId: seed.sellerId ?? globalThis.crypto.randomUUID(),
      customerLimit: seed.customerLimit ?? DEFAULT_CUSTOMER_LIMIT,
    };
    const done = keys.add(seller.apiKey, { sellerId: seller.sellerId, customerLimit: seller.customerLimit });
    registering = Promise.all([registering, done]);
    return { seller, done };
  }

  const sellers = (options.sellers ?? []).map((seed) => register(seed).seller);
  const handle = createApiHandler({
    service: createCustomerService({ store, ...(options.clock && { clock: options.clock }) }),
    lookupKey: async (hash) => {
      await registering;
      return keys.lookup(hash);
    },
    onUnexpectedError:
      options.onUnexpectedError ??
      ((error, requestId) => console.error(`[customers-api/msw] ${requestId}`, error)),
  });

  const mount = mountPoint(options.baseUrl ?? '*');
  const resolver = async ({ request }: { request: Request }) =>
    toHttpResponse(await handle(await toApiRequest(request, mount.basePath)));

  return {
    handlers: [http.all(mount.collection, resolver), http.all(mount.items, resolver)],
    sellers,
    async addSeller(seed) {
      const { seller, done } = register(seed);
      await done;
      return seller;
    },
    revokeKey: (apiKey) => keys.revoke(apiKey),
    store,
    reset: () => store.clear(),
  };
}
