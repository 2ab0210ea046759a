import { errors } from '../errors/registry.js';
import type { CustomerStore } from '../store.js';
import type { Customer, CustomerList, SellerContext } from '../types.js';
import {
  canonicalCustomerId,
  isIdempotencyKey,
  parseCustomerCreate,
  parseCustomerUpdate,
} from '../validation/validate.js';
import { buildCustomer } from './build-customer.js';
import { type Clock, createMonotonicClock } from './clock.js';
import { testClockTimestamp } from '../tenancy/test-clock.js';
import { encodeCursor, scopeOf } from './cursor.js';
import { type ListPlan, planList } from './list-plan.js';
import { idempotencyRecord } from './idempotency.js';
import { uuidV7 } from './uuid-v7.js';
import { tenantKey, tenantOf } from '../tenancy/tenant.js';

/** A list page a store read in the authentication step: the raw query, its plan and the rows (`limit + 1` at most). */
export interface PreReadPage {
  query: string;
  plan: ListPlan;
  rows: Customer[];
}

export interface CustomerServiceOptions {
  store: CustomerStore;
  /** Timestamps for created_at/updated_at; defaults to a strictly increasing wall clock. */
  clock?: Clock;
  /** New customer ids; defaults to {@link uuidV7} (time-ordered: creates append to the id index). */
  newId?: () => string;
}

export interface CreateOptions {
  /** The raw `Idempotency-Key` header, when the request carried one. */
  idempotencyKey?: string | undefined;
}

export interface CreateOutcome {
  customer: Customer;
  /** True when an earlier create with the same Idempotency-Key and body is being answered again. */
  replayed: boolean;
}

/** The four operations, each taking the raw parsed body so that no caller can skip validation. */
export interface CustomerService {
  create(seller: SellerContext, body: unknown, options?: CreateOptions): Promise<CreateOutcome>;
  /** `preRead`: the customer a store already read for this seller and id (with the key); no second read then. */
  get(seller: SellerContext, id: string, preRead?: { id: string; customer: Customer | undefined }): Promise<Customer>;
  update(seller: SellerContext, id: string, body: unknown): Promise<Customer>;
  delete(seller: SellerContext, id: string): Promise<void>;
  /** One page of the seller's customers; `query` is the raw query string (without `?`). */
  /** `preRead`: the page a store already read (with the key) for this raw query's plan; no second read then. */
  list(seller: SellerContext, query: string, preRead?: PreReadPage): Promise<CustomerList>;
}

/**
 * The business rules over any {@link CustomerStore}: validation from openapi.yaml, defaults, partial
 * update, plan limit, unique email, idempotent creates and tenancy. Failures throw {@link ApiError}.
 * Validation comes before any lookup, so a malformed id with an invalid body is a 400 like any other id.
 *
 * @example
 * const service = createCustomerService({ store: new MemoryCustomerStore() });
 * const { customer } = await service.create({ sellerId, customerLimit: 100 },
 *   { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
 */
export function createCustomerService(options: CustomerServiceOptions): CustomerService {
  const { store } = options;
  const clock = options.clock ?? createMonotonicClock();
  const newId = options.newId ?? uuidV7;
  // Test mode's timestamps follow the seller's test clock (read once per request by the host).
  const stamp = (seller: SellerContext) => testClockTimestamp(clock, seller);

  return {
    async create(seller, body, { idempotencyKey } = {}) {
      if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) {
        throw errors.idempotencyKeyMalformed();
      }
      const input = parseCustomerCreate(body);
      const now = stamp(seller);
      const customer = buildCustomer(input, { id: newId(), sellerId: seller.sellerId, mode: tenantOf(seller).mode, createdAt: now });
      const idempotency =
        idempotencyKey === undefined ? undefined : await idempotencyRecord(idempotencyKey, input, now);
      const result = await store.insertCustomer(customer, {
        customerLimit: seller.customerLimit,
        idempotency,
      });
      switch (result.kind) {
        case 'created':
          return { customer: result.customer, replayed: false };
        case 'idempotent_replay':
          // Stryker disable next-line OptionalChaining: a store answers a replay only to a create that carried a key
          if (result.fingerprint !== idempotency?.fingerprint) throw errors.idempotencyKeyReused();
          return { customer: result.customer, replayed: true };
        case 'limit_reached':
          throw errors.planLimitReached(seller.customerLimit);
        case 'email_taken':
          throw errors.emailTaken(input.email);
      }
    },

    async get(seller, id, preRead) {
      const key = canonicalCustomerId(id);
      const customer = key && (preRead?.id === key ? preRead.customer : await store.findCustomer(tenantOf(seller), key));
      if (!customer) throw errors.customerNotFound();
      return customer;
    },

    async update(seller, id, body) {
      const changes = parseCustomerUpdate(body);
      const key = canonicalCustomerId(id);
      if (!key) throw errors.customerNotFound();
      const result = await store.updateCustomer(tenantOf(seller), key, changes, stamp(seller));
      switch (result.kind) {
        case 'updated':
          return result.customer;
        case 'not_found':
          throw errors.customerNotFound();
        case 'email_taken':
          // Stryker disable next-line StringLiteral: a store reports email_taken only for a change that sets email
          throw errors.emailTaken(changes.email ?? '');
      }
    },

    async list(seller, rawQuery, preRead) {
      // The page read with the key is this query's only when it was read for this very query.
      const read = preRead?.query === rawQuery ? preRead : undefined;
      const { limit, filters, page, cursorScope } = read?.plan ?? planList(rawQuery);
      const scope = scopeOf(tenantKey(tenantOf(seller)), filters);
      // A cursor of another seller, mode or other filters: the 400, even when its page was read with the key.
      if (cursorScope !== undefined && cursorScope !== scope) throw errors.cursorInvalid();
      const rows = read?.rows ?? (await store.listCustomers(tenantOf(seller), page));
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      const hasMore = rows.length > limit && last !== undefined;
      return {
        data,
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor({ createdAt: last.created_at, id: last.id }, scope) : null,
      };
    },

    async delete(seller, id) {
      const key = canonicalCustomerId(id);
      const deleted = key !== undefined && (await store.deleteCustomer(tenantOf(seller), key));
      if (!deleted) throw errors.customerNotFound();
    },
  };
}
