import type {
  Customer,
  CustomerStore,
  CustomerUpdate,
  InsertOptions,
  InsertResult,
  UpdateResult,
} from '@customers-api/core';
import type { Kysely, Updateable } from 'kysely';
import type { DatabaseHandle } from './connect.js';
import { customerFromRow, customerToRow, fromJson, normalizeEmail, toIso, toJson } from './rows.js';
import type { CustomersTable, Database } from './schema.js';
import { isUniqueViolation } from './unique-violation.js';
import { withSellerWriteLock } from './write-transaction.js';

/**
 * Core's CustomerStore over SQL (SQLite or PostgreSQL through Kysely). Every statement is scoped by
 * seller_id. Creates run under a per-seller write lock so the plan-limit count, the email check, the
 * idempotency record and the insert are one atomic step, also across server processes; the unique index on
 * (seller_id, email_normalized) is the last word on duplicates.
 */
export class SqlCustomerStore implements CustomerStore {
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async findCustomer(sellerId: string, id: string): Promise<Customer | undefined> {
    const row = await this.handle.db
      .selectFrom('customers')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? customerFromRow(row) : undefined;
  }

  async insertCustomer(customer: Customer, options: InsertOptions): Promise<InsertResult> {
    try {
      return await withSellerWriteLock(this.handle, customer.seller_id, (trx) =>
        this.insertLocked(trx, customer, options),
      );
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'email_taken' };
      throw error;
    }
  }

  private async insertLocked(
    trx: Kysely<Database>,
    customer: Customer,
    { customerLimit, idempotency }: InsertOptions,
  ): Promise<InsertResult> {
    const sellerId = customer.seller_id;
    if (idempotency) {
      const nowIso = this.now().toISOString();
      const record = await trx
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'response', 'expires_at'])
        .where('seller_id', '=', sellerId)
        .where('key', '=', idempotency.key)
        .executeTakeFirst();
      if (record && toIso(record.expires_at) > nowIso) {
        return {
          kind: 'idempotent_replay',
          customer: fromJson<Customer>(record.response),
          fingerprint: record.fingerprint,
        };
      }
      // Expired records of this seller are dead weight: drop them while the seller is locked anyway.
      await trx
        .deleteFrom('idempotency_keys')
        .where('seller_id', '=', sellerId)
        .where('expires_at', '<=', nowIso)
        .execute();
    }

    const taken = await trx
      .selectFrom('customers')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('email_normalized', '=', normalizeEmail(customer.email))
      .executeTakeFirst();
    if (taken) return { kind: 'email_taken' };

    const { count } = await trx
      .selectFrom('customers')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('seller_id', '=', sellerId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= customerLimit) return { kind: 'limit_reached' };

    await trx.insertInto('customers').values(customerToRow(customer)).execute();
    if (idempotency) {
      await trx
        .insertInto('idempotency_keys')
        .values({
          seller_id: sellerId,
          key: idempotency.key,
          fingerprint: idempotency.fingerprint,
          customer_id: customer.id,
          response: JSON.stringify(customer),
          created_at: customer.created_at,
          expires_at: idempotency.expiresAt,
        })
        .execute();
    }
    return { kind: 'created', customer };
  }

  async updateCustomer(
    sellerId: string,
    id: string,
    changes: CustomerUpdate,
    updatedAt: string,
  ): Promise<UpdateResult> {
    const set = toColumnChanges(changes);
    set.updated_at = updatedAt;
    try {
      const row = await this.handle.db
        .updateTable('customers')
        .set(set)
        .where('seller_id', '=', sellerId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row ? { kind: 'updated', customer: customerFromRow(row) } : { kind: 'not_found' };
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'email_taken' };
      throw error;
    }
  }

  async deleteCustomer(sellerId: string, id: string): Promise<boolean> {
    const result = await this.handle.db
      .deleteFrom('customers')
      .where('seller_id', '=', sellerId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

/** Maps the present properties of a validated update onto columns (absent = unchanged, null = cleared). */
function toColumnChanges(changes: CustomerUpdate): Updateable<CustomersTable> {
  const set: Updateable<CustomersTable> = {};
  const has = (key: keyof CustomerUpdate) => Object.prototype.hasOwnProperty.call(changes, key);
  if (has('first_name') && changes.first_name !== undefined) set.first_name = changes.first_name;
  if (has('last_name') && changes.last_name !== undefined) set.last_name = changes.last_name;
  if (has('email') && changes.email !== undefined) {
    set.email = changes.email;
    set.email_normalized = normalizeEmail(changes.email);
  }
  if (has('company_name')) set.company_name = changes.company_name ?? null;
  if (has('legal_entity')) set.legal_entity = changes.legal_entity ?? null;
  if (has('language')) set.language = changes.language ?? null;
  if (has('status') && changes.status !== undefined) set.status = changes.status;
  if (has('address_data')) set.address_data = toJson(changes.address_data);
  if (has('postal_redirect_address')) set.postal_redirect_address = toJson(changes.postal_redirect_address);
  return set;
}
