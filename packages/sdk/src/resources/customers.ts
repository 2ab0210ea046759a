import { APIPromise, type CallContext } from '../core/api-promise';
import { type CursorPageBody, PagePromise } from '../core/pagination';
import type { RequestOptions, Send } from '../client';
import type { ApiRequest } from '../internal/http';
import { type CustomerListParams, type ListQuery, listQuery } from './customer-list-params';
import type { Customer, CustomerCreate, CustomerUpdate } from './customer-types';

/** Options of {@link Customers.create}. */
export interface CreateOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key` and reused on every retry. Defaults to a fresh `crypto.randomUUID()` per call;
   * pass your own to make a create safe to repeat across process restarts: 1 to 255 visible ASCII characters
   * (`!` to `~`: letters, digits and punctuation; no spaces or other whitespace), for example `signup-42`.
   */
  idempotencyKey?: string | undefined;
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Create, get, update, delete, list and find the seller's customers. Reach it as `client.customers`. */
export class Customers {
  readonly #send: Send;

  /** @internal Use `client.customers`. */
  constructor(send: Send) {
    this.#send = send;
  }

  /** One request through the client's request loop, as an {@link APIPromise}. */
  #call<T>(request: ApiRequest, options: RequestOptions | undefined): APIPromise<T> {
    return new APIPromise((context) => this.#send(options, request, context));
  }

  /**
   * Creates a customer (`POST /api/customers`). Sends an `Idempotency-Key`, so retries never create twice.
   * @throws BadRequestError, AuthenticationError, PermissionDeniedError (plan limit), ConflictError (email taken), ...
   * @example
   * const customer = await client.customers.create(
   *   { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
   *   { idempotencyKey: `signup-${userId}` },
   * );
   */
  create(body: CustomerCreate, options?: CreateOptions): APIPromise<Customer> {
    const key = options?.idempotencyKey ?? newIdempotencyKey();
    return this.#call({ method: 'POST', path: '/api/customers', body, params: { header: { 'Idempotency-Key': key } } }, options);
  }

  /**
   * Gets a customer by id (`GET /api/customers/{id}`).
   * @throws NotFoundError when there is no such customer for this seller (or the id is not a UUID).
   * @example
   * const customer = await client.customers.get('3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61');
   */
  get(id: string, options?: RequestOptions): APIPromise<Customer> {
    return this.#call({ method: 'GET', path: '/api/customers/{id}', params: { path: { id } } }, options);
  }

  /**
   * Changes only the given properties (`PATCH /api/customers/{id}`); `null` clears a nullable one.
   * @throws BadRequestError, NotFoundError, ConflictError (email taken), ...
   * @example
   * const suspended = await client.customers.update(id, { status: 'suspended' });
   */
  update(id: string, patch: CustomerUpdate, options?: RequestOptions): APIPromise<Customer> {
    return this.#call({ method: 'PATCH', path: '/api/customers/{id}', params: { path: { id } }, body: patch }, options);
  }

  /**
   * Deletes a customer permanently (`DELETE /api/customers/{id}`). Resolves with nothing.
   * @throws NotFoundError when there is no such customer for this seller.
   * @example
   * await client.customers.delete(id);
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return this.#call({ method: 'DELETE', path: '/api/customers/{id}', params: { path: { id } } }, options);
  }

  /**
   * Lists customers, newest first, one page per request (`GET /api/customers`). Await it for the first page
   * (`data`, `has_more`, `next_cursor`, `hasNextPage()`, `getNextPage()`), or iterate it with `for await` for
   * every customer of every page. Later pages repeat the filters and these request options (signal, timeout,
   * retries, headers, request id), each page with its own attempts and timeout.
   * @throws BadRequestError for a malformed parameter (`limit` outside 1-100, a bare date, a foreign cursor), ...
   * @example
   * const page = await client.customers.list({ status: 'active', limit: 50 });
   * if (page.hasNextPage()) await page.getNextPage();
   *
   * for await (const customer of client.customers.list({ created_after: new Date('2026-11-01T00:00:00Z') })) {
   *   console.log(customer.id, customer.email);
   * }
   */
  list(params: CustomerListParams = {}, options?: RequestOptions): PagePromise<Customer> {
    // Later pages repeat the filters as they were at this call, even if the caller's object changes meanwhile.
    const query = listQuery(params);
    return new PagePromise((context) => this.#page(query, options, context), (next, nextOptions) =>
      this.list({ ...query, ...next }, nextOptions ?? options),
    );
  }

  /**
   * The customer with this email address (compared case-insensitively, as uniqueness is), or `null`: one list
   * request with `email` and `limit: 1`. The address is sent percent-encoded, so `ada+tag@example.com` keeps its `+`.
   * @example
   * const existing = await client.customers.findByEmail('ada@example.com');
   * if (existing) console.log(existing.id);
   */
  findByEmail(email: string, options?: RequestOptions): APIPromise<Customer | null> {
    return new APIPromise(
      (context) => this.#page({ email, limit: 1 }, options, context),
      (page: CursorPageBody<Customer>) => page.data[0] ?? null,
    );
  }

  /** One `GET /api/customers` through the request loop. */
  #page(query: ListQuery, options: RequestOptions | undefined, context: CallContext) {
    return this.#send<CursorPageBody<Customer>>(options, { method: 'GET', path: '/api/customers', params: { query } }, context);
  }
}
