import type { Customer, CustomerUpdate } from './types.js';

/**
 * What the business rules need from storage. Implemented once in memory (this package, used by the MSW
 * mocks) and once over SQL (the reference server). Every method is scoped to one seller: a store must
 * never return or change another seller's rows.
 */
export interface CustomerStore {
  /** The seller's customer with this id, or undefined. `id` is always a well-formed UUID here. */
  findCustomer(sellerId: string, id: string): Promise<Customer | undefined>;

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
    sellerId: string,
    id: string,
    changes: CustomerUpdate,
    updatedAt: string,
  ): Promise<UpdateResult>;

  /** Deletes permanently; false when the seller has no such customer. */
  deleteCustomer(sellerId: string, id: string): Promise<boolean>;
}

export interface InsertOptions {
  /** The seller's plan limit: the insert fails with `limit_reached` when the seller already has this many. */
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
