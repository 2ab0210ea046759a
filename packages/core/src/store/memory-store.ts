import { applyCustomerUpdate } from '../customers/apply-update.js';
import { emailKey } from '../customers/email.js';
import { type CustomerChange, newEventId } from '../events/customer-change.js';
import type {
  CustomerStore,
  IdempotencyRecord,
  InsertOptions,
  InsertResult,
  PageRequest,
  UpdateResult,
} from '../store.js';
import { type Mode, type Tenant, tenantKey, tenantOfCustomer } from '../tenancy/tenant.js';
import type { Customer, CustomerUpdate } from '../types.js';

/** Called after each change, once the store has answered (as an outbox is read after its transaction). */
export type ChangeListener = (change: CustomerChange) => void;

/** The newest changes kept for {@link MemoryCustomerStore.changes}; listeners see every one. */
const KEPT_CHANGES = 10_000;

interface RememberedCreate {
  record: IdempotencyRecord;
  /** The customer as the original 201 returned it; a replay answers with exactly that. */
  customer: Customer;
}

/**
 * A {@link CustomerStore} in memory, for the MSW handlers and for tests. Each method decides and writes
 * without awaiting in between, so concurrent calls in one JavaScript realm cannot interleave: the plan
 * limit and email uniqueness hold under any number of parallel requests. Records are copied in and out,
 * so callers never hold a reference into the store.
 *
 * @example
 * const store = new MemoryCustomerStore();
 * const service = createCustomerService({ store });
 */
export interface MemoryCustomerStoreOptions {
  /** The time of a delete (milliseconds since the epoch); default `Date.now`. A mock passes its clock. */
  now?: () => number;
}

export class MemoryCustomerStore implements CustomerStore {
  readonly #now: () => number;
  // Every map is keyed by tenantKey (a seller in one mode): test and live data never share a slot.
  /** tenant → (customer id → customer). */
  readonly #customers = new Map<string, Map<string, Customer>>();
  /** `${tenant}\n${key}` → the create it answered. */
  readonly #idempotency = new Map<string, RememberedCreate>();
  /** `${tenant}\n${emailKey}` → the id of the customer with that email: uniqueness without a scan. */
  readonly #emailOwners = new Map<string, string>();
  /** customer id → its last change's sequence (kept after a delete, which is a change too). */
  readonly #sequences = new Map<string, number>();
  /** The outbox: every change in order, newest last. */
  #changes: CustomerChange[] = [];
  readonly #listeners = new Set<ChangeListener>();

  constructor(options: MemoryCustomerStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now());
  }

  #record(type: CustomerChange['type'], customer: Customer, occurredAt: string, previous?: Customer): void {
    const sequence = (this.#sequences.get(customer.id) ?? 0) + 1;
    this.#sequences.set(customer.id, sequence);
    const change: CustomerChange = {
      eventId: newEventId(),
      type,
      sellerId: customer.seller_id,
      mode: tenantOfCustomer(customer).mode,
      customerId: customer.id,
      sequence,
      occurredAt,
      customer: structuredClone(customer),
      ...(previous ? { previous: structuredClone(previous) } : {}),
    };
    this.#changes.push(change);
    if (this.#changes.length > KEPT_CHANGES) this.#changes = this.#changes.slice(-KEPT_CHANGES);
    for (const listener of this.#listeners) queueMicrotask(() => listener(structuredClone(change)));
  }

  #sellerCustomers(tenant: string): Map<string, Customer> {
    let customers = this.#customers.get(tenant);
    if (!customers) {
      customers = new Map();
      this.#customers.set(tenant, customers);
    }
    return customers;
  }

  #emailSlot(sellerId: string, email: string): string {
    return `${sellerId}\n${emailKey(email)}`;
  }

  #emailTaken(sellerId: string, email: string, exceptId?: string): boolean {
    const owner = this.#emailOwners.get(this.#emailSlot(sellerId, email));
    return owner !== undefined && owner !== exceptId;
  }

  async findCustomer(tenant: Tenant, id: string): Promise<Customer | undefined> {
    const customer = this.#customers.get(tenantKey(tenant))?.get(id);
    return customer && structuredClone(customer);
  }

  async insertCustomer(customer: Customer, options: InsertOptions): Promise<InsertResult> {
    const sellerId = tenantKey(tenantOfCustomer(customer));
    const idempotencyId = options.idempotency && `${sellerId}\n${options.idempotency.key}`;
    // Stryker disable next-line ConditionalExpression: without a key, get(undefined) finds nothing anyway
    if (idempotencyId) {
      const remembered = this.#idempotency.get(idempotencyId);
      // ISO 8601 UTC strings of one format compare in time order.
      if (remembered && remembered.record.expiresAt > customer.created_at) {
        return {
          kind: 'idempotent_replay',
          customer: structuredClone(remembered.customer),
          fingerprint: remembered.record.fingerprint,
        };
      }
    }
    const customers = this.#sellerCustomers(sellerId);
    if (customers.size >= options.customerLimit) return { kind: 'limit_reached' };
    if (this.#emailTaken(sellerId, customer.email)) return { kind: 'email_taken' };

    customers.set(customer.id, structuredClone(customer));
    this.#emailOwners.set(this.#emailSlot(sellerId, customer.email), customer.id);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: an entry under `undefined` is never looked up (see above); idempotencyId is set exactly when options.idempotency is
    if (idempotencyId && options.idempotency) {
      this.#idempotency.set(idempotencyId, {
        record: { ...options.idempotency },
        customer: structuredClone(customer),
      });
    }
    this.#record('customer.created', customer, customer.updated_at);
    return { kind: 'created', customer: structuredClone(customer) };
  }

  async updateCustomer(
    tenant: Tenant,
    id: string,
    changes: CustomerUpdate,
    updatedAt: string,
  ): Promise<UpdateResult> {
    const sellerId = tenantKey(tenant);
    const customers = this.#customers.get(sellerId);
    const current = customers?.get(id);
    if (!customers || !current) return { kind: 'not_found' };
    if (changes.email !== undefined && this.#emailTaken(sellerId, changes.email, id)) {
      return { kind: 'email_taken' };
    }
    const updated = applyCustomerUpdate(current, changes, updatedAt);
    customers.set(id, updated);
    this.#emailOwners.delete(this.#emailSlot(sellerId, current.email));
    this.#emailOwners.set(this.#emailSlot(sellerId, updated.email), id);
    this.#record('customer.updated', updated, updated.updated_at, current);
    return { kind: 'updated', customer: structuredClone(updated) };
  }

  async deleteCustomer(tenant: Tenant, id: string): Promise<boolean> {
    const sellerId = tenantKey(tenant);
    const customers = this.#customers.get(sellerId);
    const current = customers?.get(id);
    if (!customers || !current) return false;
    customers.delete(id);
    this.#emailOwners.delete(this.#emailSlot(sellerId, current.email));
    const now = new Date(this.#now()).toISOString();
    // Never before the customer's last change, even if the wall clock stepped back.
    this.#record('customer.deleted', current, now > current.updated_at ? now : current.updated_at);
    return true;
  }

  async listCustomers(tenant: Tenant, page: PageRequest): Promise<Customer[]> {
    const sellerId = tenantKey(tenant);
    const customers = this.#customers.get(sellerId);
    if (!customers) return [];
    let candidates: Iterable<Customer> = customers.values();
    if (page.emailKey !== undefined) {
      const owner = this.#emailOwners.get(`${sellerId}\n${page.emailKey}`);
      // Stryker disable next-line ConditionalExpression: customers.get(undefined) is undefined too
      const customer = owner === undefined ? undefined : customers.get(owner);
      candidates = customer ? [customer] : [];
    }
    const { after, status, createdFrom, createdBefore } = page;
    const matching = [...candidates].filter(
      (c) =>
        (status === undefined || c.status === status) &&
        (createdFrom === undefined || c.created_at >= createdFrom) &&
        (createdBefore === undefined || c.created_at < createdBefore) &&
        (after === undefined || c.created_at < after.createdAt || (c.created_at === after.createdAt && c.id < after.id)),
    );
    // ISO 8601 UTC strings of one format, and canonical UUIDs, compare as strings in their order.
    // Stryker disable next-line EqualityOperator: two customers never share an id, and the created_at comparison only runs when they differ
    matching.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    return matching.slice(0, page.limit).map((c) => structuredClone(c));
  }

  /** How many customers the seller has in `mode` (live when omitted), for tests and seeding. */
  countCustomers(sellerId: string, mode: Mode = 'live'): number {
    return this.#customers.get(tenantKey({ sellerId, mode }))?.size ?? 0;
  }

  /**
   * Forgets the seller's test customers and their idempotency records (the one-call wipe); live data stays. Their
   * changes stay in the outbox, as a delete's would. Returns how many customers went.
   */
  wipeTestData(sellerId: string): number {
    const tenant = tenantKey({ sellerId, mode: 'test' });
    const customers = this.#customers.get(tenant);
    const removed = customers?.size ?? 0;
    for (const customer of customers?.values() ?? []) this.#emailOwners.delete(this.#emailSlot(tenant, customer.email));
    this.#customers.delete(tenant);
    for (const key of [...this.#idempotency.keys()]) if (key.startsWith(`${tenant}\n`)) this.#idempotency.delete(key);
    return removed;
  }

  /**
   * Calls `listener` with every later change (after the write has answered); returns the unsubscribe.
   *
   * @example
   * const stop = store.onChange((change) => deliver(customerEvent(change)));
   */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The recorded changes (the newest 10,000), oldest first; only one seller's when `sellerId` is given (in `mode`
   * only, when given too).
   */
  changes(sellerId?: string, mode?: Mode): CustomerChange[] {
    const kept =
      sellerId === undefined
        ? this.#changes
        : this.#changes.filter((c) => c.sellerId === sellerId && (mode === undefined || c.mode === mode));
    return kept.map((change) => structuredClone(change));
  }

  /** Forgets every customer, idempotency record and change (listeners stay). */
  clear(): void {
    this.#customers.clear();
    this.#idempotency.clear();
    this.#emailOwners.clear();
    this.#sequences.clear();
    this.#changes = [];
  }
}
