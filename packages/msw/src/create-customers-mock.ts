import {
  createMockApi,
  NETWORK_ERROR,
  type CustomerEvent,
  type CustomerEventType,
  type MockApi,
  type MockApiOptions,
  type OperationId,
} from '@customers-api/core';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { pathBelow, toApiRequest } from './adapt-request.js';
import { toHttpResponse } from './adapt-response.js';
import { mountPoint } from './base-url.js';
import { createEventLog, eventMatcher, type EventOf, type NextEventArgs, type NextEventOptions } from './event-log.js';
import type { OperationForcedResponse } from './operation-types.js';
import type { CustomersMockClock, RequestEntry, RequestFilter } from './request-entry.js';
import { createOverrides, type OverrideResolver } from './overrides.js';

export interface CustomersMockOptions extends Omit<MockApiOptions, 'defaultSellerId' | 'onUnexpectedError'> {
  /** Where the API lives; default `'*'` (any origin). Example: `'http://127.0.0.1:3000'`. */
  baseUrl?: string;
  /** Called with any fault that is not an API error (answered 500); defaults to `console.error`. */
  onUnexpectedError?: (error: unknown, requestId: string) => void;
}

export interface CustomersMock extends Omit<MockApi, 'answer' | 'nextResponse' | 'record' | 'requests' | 'clock'> {
  /** Pass to `setupServer(...mock.handlers)` or `setupWorker(...mock.handlers)`. */
  handlers: HttpHandler[];
  /**
   * Forces the next request(s) to an operation to fail, to wait first, or to succeed with the body you give
   * (the operation's own success status; the body's type is the documented one). Forced answers store nothing.
   *
   * @example
   * mock.nextResponse('getCustomer', { status: 200, body: customer });
   * mock.nextResponse('createCustomer', { status: 503, headers: { 'Retry-After': '1' } });
   */
  nextResponse<Op extends OperationId>(operation: Op, forced: NoInfer<OperationForcedResponse<Op>>): void;
  /**
   * Answers one operation yourself, over the stateful mock (MSW's `server.use` semantics: the newest
   * override answers first; return `undefined` to let the mock answer). Params and query are typed from
   * openapi.yaml, `body` is what was sent (`unknown`) and `validBody` the same once the operation's schema
   * accepts it; the response must be one the operation documents, or a raw `Response` sent as built.
   * `reset()` and `resetOverrides()` remove overrides.
   *
   * @example
   * mock.use('getCustomer', ({ params }) =>
   *   params.id === 'gone' ? { status: 404, body: { error: 'Not Found', message: 'Customer not found' } } : undefined,
   * );
   */
  use<Op extends OperationId>(operation: Op, resolver: NoInfer<OverrideResolver<Op>>): void;
  /** Removes every override added with `use`; seeds, customers and forced responses stay. */
  resetOverrides(): void;
  /**
   * Resolves with the oldest event not yet taken by `nextEvent` (since the mock started or was last reset)
   * of this type and, if given, passing `matches`; else with the next one emitted. Events are emitted before
   * the request is answered, so waiting after `await client.customers.update(...)` cannot miss one. Rejects
   * after `timeoutMs` (default 2000) naming what it waited for and the events not taken.
   *
   * @example
   * await client.customers.update(ada.id, { status: 'suspended' });
   * const event = await mock.nextEvent('customer.updated'); // CustomerUpdatedEvent
   * event.data.changed_fields; // ['status']
   * await mock.nextEvent('customer.deleted', (e) => e.data.customer.id === ada.id, { timeoutMs: 500 });
   * await mock.nextEvent('customer.deleted', undefined, { timeoutMs: 500 }); // same as ('customer.deleted', { timeoutMs: 500 })
   */
  nextEvent<T extends CustomerEventType>(type: T, options?: NextEventOptions): Promise<EventOf<T>>;
  nextEvent<T extends CustomerEventType>(
    type: T,
    matches: ((event: EventOf<T>) => boolean) | undefined,
    options?: NextEventOptions,
  ): Promise<EventOf<T>>;
  nextEvent(matches?: (event: CustomerEvent) => boolean, options?: NextEventOptions): Promise<CustomerEvent>;
  /**
   * The events since the mock started or was last reset (the newest 1,000), oldest first, whether or not
   * `nextEvent` took them: `expect(mock.events()).toEqual([])` after a refused request.
   */
  events(): CustomerEvent[];
  /**
   * The requests the handlers received since the mock started or was last reset (the newest `journalSize`,
   * default 1,000), oldest first, that match `filter`: refused ones and unknown paths too, override answers
   * included. API keys are shown only by their first 12 characters. With `operation`, `body` has that
   * operation's request type.
   *
   * @example
   * const [create] = mock.requests({ operation: 'createCustomer' });
   * create.headers['idempotency-key']; // what the client sent
   * create.body; // CustomerCreate | string | null
   */
  requests<Op extends OperationId>(filter: RequestFilter<Op> & { operation: Op }): RequestEntry<Op>[];
  requests(filter?: RequestFilter): RequestEntry[];
  /**
   * The mock's one clock: `created_at`/`updated_at` (and so the list's date filters), key expiry, rate-limit
   * windows, the idempotency window and event times read it. `reset()` of the mock resets it too.
   *
   * @example
   * await mock.clock.set('2026-01-01T00:00:00Z'); // frozen there
   * await mock.clock.advance(60 * 60 * 1000 + 1000); // a key expiring at 01:00 is 401 now
   */
  clock: CustomersMockClock;
}

/**
 * The mock made without a `sellers` option: every well-formed key is its one default seller, so `defaultSeller`
 * is always there (no `!` needed in TypeScript).
 */
export type CustomersMockWithDefaultSeller = CustomersMock & { defaultSeller: NonNullable<CustomersMock['defaultSeller']> };

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
 *   headers: { 'X-API-Key': mock.defaultSeller.apiKey }, // any sk_live_ + 48 alphanumerics works
 * }); // 503, then 200 on the next try
 */
export function createCustomersMock(options?: CustomersMockOptions & { sellers?: undefined }): CustomersMockWithDefaultSeller;
export function createCustomersMock(options?: CustomersMockOptions): CustomersMock;
export function createCustomersMock(options: CustomersMockOptions = {}): CustomersMock {
  const { baseUrl, ...rest } = options;
  const { answer, record, requests, clock, ...api } = createMockApi({
    ...rest,
    onUnexpectedError:
      options.onUnexpectedError ??
      ((error, requestId) => console.error(`[customers-api/msw] ${requestId}`, error)),
  });

  // Kept from the start, so a test may ask for an event after the request that caused it.
  const log = createEventLog();
  api.onEvent(log.record);

  const mount = mountPoint(baseUrl ?? '*');
  const overrides = createOverrides();
  const resolver = async ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    const path = pathBelow(url, mount.basePath);
    const overridden = overrides.active ? await overrides.answer(request, url, path) : undefined;
    // The journal keeps the request as sent; an override read a clone of it. A raw Response is journaled by status.
    if (overridden) {
      const answered = overridden instanceof Response ? overridden.status : overridden;
      record(await toApiRequest(request, mount.basePath, url), answered, true);
    }
    const reply = overridden ?? (await answer(request.method, path, () => toApiRequest(request, mount.basePath, url)));
    if (reply instanceof Response) return reply; // an override's raw Response, sent as built
    return reply === NETWORK_ERROR ? HttpResponse.error() : toHttpResponse(reply);
  };

  return {
    ...api,
    handlers: [http.all(mount.pattern, resolver)],
    nextResponse: (operation, forced) => api.nextResponse(operation, forced),
    use: overrides.use,
    resetOverrides: overrides.clear,
    nextEvent: (...args: NextEventArgs) => {
      const { matches, description, options } = eventMatcher(args);
      return log.next(matches, description, options);
    },
    events: log.events,
    requests: ((filter?: RequestFilter) => requests(filter).data) as CustomersMock['requests'],
    clock: {
      now: () => new Date(clock.now()),
      get frozen() {
        return clock.state().frozen;
      },
      set: (date) => clock.set(date),
      advance: (ms) => clock.advance(ms),
      unfreeze: () => clock.unfreeze(),
      reset: () => clock.reset(),
    },
    reset: async () => {
      overrides.clear();
      await api.reset();
      log.clear(); // after the reset: events of requests made before it belong to the test that made them
    },
  };
}
