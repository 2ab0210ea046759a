import type { Client } from 'openapi-fetch';
import type { APIPromise } from '../core/api-promise';
import type { RequestOptions, Send } from '../client';
import type { paths } from '../generated/openapi';
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

/** Create, get, update and delete the seller's customers. Reach it as `client.customers`. */
export class Customers {
  readonly #api: Client<paths>;
  readonly #send: Send;

  /** @internal Use `client.customers`. */
  constructor(api: Client<paths>, send: Send) {
    this.#api = api;
    this.#send = send;
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
    return this.#send<Customer>(options, (init) =>
      this.#api.POST('/api/customers', { ...init, body, params: { header: { 'Idempotency-Key': key } } }),
    );
  }

  /**
   * Gets a customer by id (`GET /api/customers/{id}`).
   * @throws NotFoundError when there is no such customer for this seller (or the id is not a UUID).
   * @example
   * const customer = await client.customers.get('3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61');
   */
  get(id: string, options?: RequestOptions): APIPromise<Customer> {
    return this.#send<Customer>(options, (init) =>
      this.#api.GET('/api/customers/{id}', { ...init, params: { path: { id } } }),
    );
  }

  /**
   * Changes only the given properties (`PATCH /api/customers/{id}`); `null` clears a nullable one.
   * @throws BadRequestError, NotFoundError, ConflictError (email taken), ...
   * @example
   * const suspended = await client.customers.update(id, { status: 'suspended' });
   */
  update(id: string, patch: CustomerUpdate, options?: RequestOptions): APIPromise<Customer> {
    return this.#send<Customer>(options, (init) =>
      this.#api.PATCH('/api/customers/{id}', { ...init, body: patch, params: { path: { id } } }),
    );
  }

  /**
   * Deletes a customer permanently (`DELETE /api/customers/{id}`). Resolves with nothing.
   * @throws NotFoundError when there is no such customer for this seller.
   * @example
   * await client.customers.delete(id);
   */
  delete(id: string, options?: RequestOptions): APIPromise<void> {
    return this.#send<void>(options, (init) =>
      this.#api.DELETE('/api/customers/{id}', { ...init, params: { path: { id } } }),
    );
  }
}
