import { createCustomerService } from '../customers/customer-service.js';
import type { Clock } from '../customers/clock.js';
import { createApiHandler } from '../http/api-handler.js';
import { memoryTestData } from '../tenancy/test-data.js';
import { mockTestClock } from '../tenancy/test-clock.js';
import type { ApiVersioning } from '../versions/version-change.js';
import type { ApiRequest } from '../http/types.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import { createWebhookService } from '../webhooks/webhook-service.js';
import type { Customer, SellerContext } from '../types.js';
import { forcedAnswer, type MockAnswer } from './forced-answer.js';
import { checkForced, type ForcedResponse, ForcedResponses } from './forced-responses.js';
import type { OperationId } from '../http/operations.js';
import { operationFor } from './operation.js';
import { createMemoryRateLimiter } from '../rate-limit/memory-rate-limiter.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_SECONDS } from '../rate-limit/failed-authentication.js';
import { createMockEvents, type CustomerEventListener } from './mock-events.js';
import { applySeeds, checkSeeds, type CustomerSeed } from './seed.js';
import { createSellerDirectory, type KeySeed, type MockSeller, type SellerSeed } from './sellers.js';
import { createMockClock, type MockClock } from './mock-clock.js';
import { createRequestJournal, journalHeader, type JournalFilter, type JournalPage, type JournalUsage } from './request-journal.js';
import { readApiKey } from '../auth/read-api-key.js';
import { isApiError } from '../errors/api-error.js';
import { NETWORK_ERROR } from './forced-answer.js';

/** A request as a host hands it to {@link MockApi.answer}: with all its headers, for the request journal. */
export interface MockRequest extends ApiRequest {
  /** Every request header (names lower-case); the journal shows them, API keys cut to their prefix and other credentials redacted. */
  headers?: Record<string, string>;
}

export interface MockApiOptions {
  /**
   * Sellers (API keys) known from the start. Omitted: any well-formed key (`sk_live_` + 48 letters and
   * digits) is accepted as one default seller, {@link MockApi.defaultSeller}.
   */
  sellers?: SellerSeed[];
  /** The plan limit of the default seller and of sellers that name none; default 100 (the free plan). */
  customerLimit?: number;
  /** The default seller's id (without `sellers`); generated when omitted. */
  defaultSellerId?: string;
  /** Customers that exist from the start, created through core's rules; `reset()` brings them back. */
  seed?: CustomerSeed[];
  /** Timestamps for created_at/updated_at; defaults to the mock's clock ({@link MockApi.clock}), strictly increasing. */
  clock?: Clock;
  /**
   * Start the mock's clock frozen at this instant (in the past if you like: seeds and later requests are
   * stamped with it); `reset()` returns to it. Omitted: the clock runs with the wall clock.
   */
  frozenAt?: Date | string | undefined;
  /** How many requests the journal keeps ({@link MockApi.requests}); default 1,000, older ones dropped and counted. */
  journalSize?: number;
  /**
   * The memory the journal may hold, by its own count (2 bytes a character plus an overhead per entry);
   * default 16 MiB. The oldest entries are dropped to stay within it, as beyond `journalSize`.
   */
  journalMemoryBytes?: number;
  /** Values the journal redacts whole wherever they appear in a header (the HTTP mock's control token). */
  journalSecrets?: string[];
  /** Called with any fault that is not an API error (answered 500). */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
  /**
   * Simulates the server's rate limit: requests per second per seller, as `serve --rate-limit N` (0 or omitted:
   * none), or a {@link RateLimiter} of your own (a pinned clock, another window). Over it: 429 with
   * `Retry-After`; every answer after authentication carries `RateLimit` and `RateLimit-Policy`.
   */
  rateLimit?: number | RateLimiter;
  /** The versions answered and the changes between them (tests: a fixture version); openapi.yaml's when omitted. */
  versioning?: ApiVersioning;
}

/** The stateful mock of the API without any HTTP framework: what the MSW handlers and the HTTP mock host. */
export interface MockApi {
  /**
   * Answers one request. Call it as the request arrives (that claims its forced response, in arrival
   * order); `read` then gives the whole request, body included. `forced` (checked as `nextResponse`
   * checks it) answers this request instead of any queued forced response.
   */
  answer(method: string, path: string, read: () => Promise<MockRequest>, forced?: ForcedResponse): Promise<MockAnswer>;
  /**
   * Writes a request a host answered itself (a `Prefer: example=` answer, an override, a fault) into the
   * journal; `answer()` records its own.
   */
  record(request: MockRequest, answer: MockAnswer | number, forced: boolean): void;
  /**
   * The requests received (the newest `journalSize`), oldest first, matching `filter`, and how many were
   * dropped. Also refused requests and unknown paths; never the control API's.
   *
   * @example
   * api.requests({ operation: 'createCustomer' }).data[0].headers['idempotency-key'];
   */
  requests(filter?: JournalFilter): JournalPage;
  /** Forgets the requests received. */
  clearRequests(): void;
  /** How many entries and bytes the journal holds now, by its own count, and its bounds. */
  journalUsage(): JournalUsage;
  /**
   * The mock's one clock: created_at/updated_at, key expiry, rate-limit windows, the idempotency window and
   * event times all read it. `clock.set(date)` freezes it there, `clock.advance(ms)` moves it on.
   */
  clock: MockClock;
  /**
   * Work to wait for before `POST /api/test_clock` moves the clock (the HTTP mock's deliveries under way, as
   * `/__mock/clock` waits for them), so the retries they lead to are scheduled first.
   */
  settleBeforeClockChange(settle: () => Promise<void>): void;
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
  /** Gives a known seller another key; resolves once it authenticates. */
  addKey(sellerId: string, key: KeySeed): Promise<void>;
  /** Revokes a key: requests with it answer 401 from then on. */
  revokeKey(apiKey: string): Promise<void>;
  /** Any seller the mock knows (given, added or the default one) by its id. */
  findSeller(sellerId: string): SellerContext | undefined;
  /**
   * Calls `listener` with the event of every later acknowledged create, update and delete, as openapi.yaml's
   * `webhooks` describe it (`customer.created`, `customer.updated`, `customer.deleted`), in the order of the
   * changes, in a microtask after the store answered (so before the request's answer is sent). Refused
   * requests, forced answers and idempotent replays emit none; neither do seeds (`seed`, `seed()`, `reset()`):
   * a seed describes a state, so a seeded customer's first event is its first change (`data.sequence` 2).
   * Returns the unsubscribe; `reset()` keeps listeners.
   *
   * @example
   * const stop = api.onEvent((event) => console.log(event.type, event.data.customer.id));
   */
  onEvent(listener: CustomerEventListener): () => void;
  /** The customers and idempotency records, for inspection between requests. */
  store: MemoryCustomerStore;
  /** The webhook endpoints registered through the API and their events (`onDue` tells a host what to send). */
  webhookStore: MemoryWebhookStore;
  /**
   * Back to the start: the `seed` option's customers (same ids) and nothing else; forced responses are
   * dropped; the journal is cleared and the clock is the start's again; sellers and revocations stay.
   * Requests made meanwhile wait for it.
   */
  reset(): Promise<void>;
}

/**
 * Core's rules over an in-memory store, with sellers, seed customers and forced responses: a whole stateful
 * mock of the API as one object, for hosts to put behind their transport.
 *
 * @example
 * const api = createMockApi({ seed: [{ customers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }] }] });
 * const answer = await api.answer('GET', '/api/customers/42', async () => request); // 404 Customer not found
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const mockClock = createMockClock({ start: options.frozenAt });
  const journal = createRequestJournal(options.journalSize, options.journalMemoryBytes);
  const journalSecrets = options.journalSecrets ?? [];
  const store = new MemoryCustomerStore({ now: mockClock.now });
  const events = createMockEvents(store);
  const directory = createSellerDirectory({ ...options, now: mockClock.now });
  const clock = options.clock ?? mockClock.timestamp;
  const service = createCustomerService({ store, clock });
  const webhookStore = new MemoryWebhookStore(store);
  // A mock's receivers are usually on this machine: loopback and private URLs are allowed, as with
  // `--allow-private-webhooks`.
  const webhooks = createWebhookService({ store: webhookStore, clock, allowPrivate: true, ...(options.versioning && { versions: options.versioning.versions }) });
  // Seeds go through the same rules and clock, into the same store, without events.
  const seedService = createCustomerService({ store: events.quietStore, clock });
  const forced = new ForcedResponses();
  let settleBeforeClockChange: () => Promise<void> = async () => {};
  const rateLimiter =
    typeof options.rateLimit === 'number' ? memoryLimiter(options.rateLimit, mockClock.now) : options.rateLimit;
  // With a rate limit, failed authentications are limited per client address as on the server (hosts with a
  // socket give the address; MSW has none), on the mock's clock.
  const failedAuthLimiter = rateLimiter
    ? createMemoryRateLimiter({ limit: FAILED_AUTH_LIMIT, windowSeconds: FAILED_AUTH_WINDOW_SECONDS, now: mockClock.now })
    : undefined;
  const handle = createApiHandler({
    service,
    webhooks,
    testData: memoryTestData(store, webhookStore),
    // The mocks' test clock is their one clock: `/__mock/clock` is the other door onto it.
    testClock: mockTestClock(mockClock, () => settleBeforeClockChange()),
    lookupKey: directory.lookupKey,
    hashKey: directory.hashKey,
    // A version's sunset follows the mock's clock, so a test can move past it.
    now: () => new Date(mockClock.now()),
    ...(options.onUnexpectedError && { onUnexpectedError: options.onUnexpectedError }),
    ...(rateLimiter && { rateLimiter, failedAuthLimiter }),
    ...(options.versioning && { versioning: options.versioning }),
  });

  // Seeding and resets run one after another; requests wait for those already queued.
  let queue: Promise<unknown> = Promise.resolve();
  /** Tasks queued and not yet settled: while none is, a request need not wait for the queue (two awaits saved). */
  let queued = 0;
  function enqueue<T>(task: () => Promise<T>): Promise<T> {
    queued++;
    const run = queue.then(task);
    // Counted down a tick after `run` settles, so a refused seed has set `seedFailed` by then.
    queue = run.catch(() => undefined).then(() => queued--);
    return run;
  }

  const seeds = options.seed ?? [];
  checkSeeds(seeds, directory.find);
  const ready = enqueue(() => applySeeds(seedService, seeds, directory.find));
  // A refused seed surfaces through `ready` and through every request (the host answers the throw with a 500).
  let seedFailed = false;
  ready.catch(() => (seedFailed = true));

  function record(
    request: MockRequest,
    answer: MockAnswer | number,
    wasForced: boolean,
    at = mockClock.now(),
    operation = operationFor(request.method, request.path),
  ): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = journalHeader(name, value, journalSecrets);
    const response = typeof answer === 'number' || answer === NETWORK_ERROR ? undefined : answer;
    journal.record({
      at: new Date(at).toISOString(),
      method: request.method.toUpperCase(),
      path: request.path,
      query: request.query ?? '',
      operation: operation ?? null,
      headers,
      body: request.body,
      status: typeof answer === 'number' ? answer : (response?.status ?? null),
      forced: wasForced,
      requestId: response?.headers['X-Request-Id'] ?? null,
      seller: sellerOf(request),
    });
  }

  /** The seller of the request's key for the journal; null without one, and for a header that cannot be read. */
  function sellerOf(request: MockRequest): string | null {
    try {
      const apiKey = readApiKey(request.header);
      return (apiKey !== undefined && directory.find({ apiKey })?.sellerId) || null;
    } catch {
      return null;
    }
  }

  return {
    async answer(method, path, read, preferred) {
      const at = mockClock.now();
      const operation = operationFor(method, path);
      if (operation && preferred) checkForced(operation, preferred);
      const force = preferred ?? (operation && forced.take(operation));
      let request: MockRequest = { method, path, header: () => undefined, body: null };
      let answer: MockAnswer | undefined;
      let wasForced = false;
      let thrownStatus = 500;
      try {
        if (queued > 0 || seedFailed) {
          await queue;
          await ready;
        }
        request = await read();
        if (force) {
          answer = await forcedAnswer(force, request, directory);
          wasForced = answer !== undefined;
          if (answer) return answer;
        }
        const response = await handle(request);
        answer = { ...response, headers: { ...response.headers, ...force?.headers } };
        return answer;
      } catch (error) {
        // The host answers a throw: an API error with its status, anything else 500.
        if (isApiError(error)) thrownStatus = error.status;
        throw error;
      } finally {
        record(request, answer ?? thrownStatus, wasForced, at, operation);
      }
    },
    record: (request, answer, wasForced) => record(request, answer, wasForced),
    requests: (filter) => journal.read(filter),
    clearRequests: () => journal.clear(),
    journalUsage: () => journal.usage(),
    clock: mockClock,
    settleBeforeClockChange(settle) {
      settleBeforeClockChange = settle;
    },
    sellers: directory.sellers,
    defaultSeller: directory.defaultSeller,
    ready,
    seed: (more) =>
      enqueue(async () => {
        const list = Array.isArray(more) ? more : [more];
        checkSeeds(list, directory.find);
        return applySeeds(seedService, list, directory.find);
      }),
    nextResponse: (operation, response) => forced.push(operation, response),
    async addSeller(seed) {
      const { seller, done } = directory.register(seed);
      await done;
      return seller;
    },
    addKey: async (sellerId, key) => directory.addKey(sellerId, key),
    revokeKey: (apiKey) => directory.revoke(apiKey),
    findSeller: (sellerId) => directory.find({ sellerId }),
    onEvent: events.onEvent,
    store,
    webhookStore,
    reset() {
      forced.clear();
      journal.clear();
      mockClock.reset();
      return enqueue(async () => {
        store.clear();
        webhookStore.clear();
        for (const customer of await ready.catch(() => [])) {
          // Already accepted by core once; put back as it was (same id and timestamps).
          // Stryker disable next-line ObjectLiteral: the memory store's limit check `size >= customerLimit` is false for undefined as for Infinity
          await events.quietStore.insertCustomer(customer, { customerLimit: Number.POSITIVE_INFINITY });
        }
      });
    },
  };
}

/** `serve --rate-limit N`'s rule in memory: N per second per seller; 0 is none. */
function memoryLimiter(perSecond: number, now: () => number): RateLimiter | undefined {
  return perSecond > 0 ? createMemoryRateLimiter({ limit: perSecond, now }) : undefined;
}
