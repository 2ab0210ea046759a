import type { ListPosition } from './customers/cursor.js';
import type { Tenant } from './tenancy/tenant.js';
import type { Customer, CustomerUpdate, Status } from './types.js';

/**
 * What the business rules need from storage. Implemented once in memory (this package, used by the MSW
 * mocks) and once over SQL (the reference server). Every method is scoped to one {@link Tenant}, a seller in one
 * mode: a store must never return, change or count another seller's rows, nor the same seller's rows of the
 * other mode (test data and live data never meet). A new customer's tenant is its `seller_id` and `livemode`.
 */
export interface CustomerStore {
  /** The seller's customer with this id, or undefined. `id` is always a well-formed UUID here. */
  findCustomer(tenant: Tenant, id: string): Promise<Customer | undefined>;

  /**
   * Inserts a fully built customer. Must be atomic with respect to concurrent calls (from this and other
   * processes sharing the database): the plan-limit count, the case-insensitive email uniqueness check and
   * the idempotency record are decided together with the insert.
   */
  insertCustomer(customer: Customer, options: InsertOptions): Promise<InsertResult>;

  /**
   * Applies `changes` (already validated; `null` clears) and sets `updated_at`. Returns undefined when the
   * seller has no such customer. Email uniqueness (case-insensitive, excluding this customer) is enforced
   * atomically.
   */
  updateCustomer(
    tenant: Tenant,
    id: string,
    changes: CustomerUpdate,
    updatedAt: string,
  ): Promise<UpdateResult>;

  /** Deletes permanently; false when the seller has no such customer. */
  deleteCustomer(tenant: Tenant, id: string): Promise<boolean>;

  /**
   * The seller's customers matching every given filter, newest first (`created_at` desc, then `id` desc),
   * starting strictly after `after`, at most `limit` of them. Must cost about the same at any table size
   * (an index on seller, created_at and id).
   */
  listCustomers(tenant: Tenant, page: PageRequest): Promise<Customer[]>;
}

/** One page's worth of a list query, already validated; timestamps are ISO 8601 UTC with milliseconds. */
export interface PageRequest {
  limit: number;
  /** Only customers after this position in the order. */
  after?: ListPosition | undefined;
  /** Only the customer whose `emailKey(email)` is this. */
  emailKey?: string | undefined;
  status?: Status | undefined;
  /** Only customers with `created_at >= createdFrom`. */
  createdFrom?: string | undefined;
  /** Only customers with `created_at < createdBefore`. */
  createdBefore?: string | undefined;
}

export interface InsertOptions {
  /**
   * The seller's plan limit: the insert fails with `limit_reached` when the tenant already has this many (each
   * mode counts its own customers against the same limit).
   */
  customerLimit: number;
  /** When the create carried an Idempotency-Key: remember (or replay) this create. */
  idempotency?: IdempotencyRecord;
}

export interface IdempotencyRecord {
  key: string;
  /** A digest of the request body; the same key with another fingerprint is an error. */
  fingerprint: string;
  /** ISO 8601; a record past this time is ignored and may be replaced. */
  expiresAt: string;
}

export type InsertResult =
  | { kind: 'created'; customer: Customer }
  | { kind: 'email_taken' }
  | { kind: 'limit_reached' }
  /** An unexpired record with this idempotency key exists: the customer it created and its fingerprint. */
  | { kind: 'idempotent_replay'; customer: Customer; fingerprint: string };

export type UpdateResult =
  | { kind: 'updated'; customer: Customer }
  | { kind: 'not_found' }
  | { kind: 'email_taken' };
