import {
  applyCustomerUpdate,
  emailKey,
  type Customer,
  type CustomerStore,
  type CustomerUpdate,
  type InsertOptions,
  type InsertResult,
  type PageRequest,
  type Tenant,
  tenantOfCustomer,
  type UpdateResult,
} from '@customers-api/core';
import { sql, type Kysely } from 'kysely';
import { compileOnce, compileOnceIn } from './compile-once.js';
import type { DatabaseHandle } from './connect.js';
import { CUSTOMER_COLUMNS, customerFromRow, customerToRow, fromJson, toIso } from './rows.js';
import type { Database } from './schema.js';
import { isUniqueViolation } from './unique-violation.js';
import { listCustomerPage } from './list-page.js';
import { lockSeller } from './sellers.js';
import { writeStatement, writeTransaction } from './write-transaction.js';
import { deleteCustomerPg, findCustomerPg, insertCustomerPg, updateCustomerPg } from './postgres-writes.js';

// The GET path: compiled once per database.
const selectCustomer = compileOnce((db, sellerId: string, mode: string, id: string) =>
  db.selectFrom('customers').selectAll().where('seller_id', '=', sellerId).where('mode', '=', mode).where('id', '=', id),
);

// A create's statements, compiled once per database and run inside its transaction.
const selectCustomerCount = compileOnceIn((db, sellerId: string, mode: string) =>
  db.selectFrom('customer_counts').select('count').where('seller_id', '=', sellerId).where('mode', '=', mode),
);
const selectEmailTaken = compileOnceIn((db, sellerId: string, mode: string, email: string) =>
  db.selectFrom('customers').select('id').where('seller_id', '=', sellerId).where('mode', '=', mode).where('email_normalized', '=', email),
);
type CustomerRowValues = ReturnType<typeof customerToRow>;
const insertCustomerRow = compileOnceIn((db, ...values: string[]) =>
  db
    .insertInto('customers')
    .values(Object.fromEntries(CUSTOMER_COLUMNS.map((column, i) => [column, values[i]])) as CustomerRowValues),
);

// SQLite's create without an idempotency key: the plan limit and the insert in one statement (no row when the
// tenant's count, kept by triggers, has reached the limit); the unique index (seller_id, mode, email_normalized)
// rejects a taken email. Same order as the steps below: limit first, then email.
const INSERT_UNDER_LIMIT = `insert into customers (${CUSTOMER_COLUMNS.join(', ')})
  select ${CUSTOMER_COLUMNS.map(() => '?').join(', ')}
  where coalesce((select count from customer_counts where seller_id = ? and mode = ?), 0) < ?`;

// An update's read (locking the row on PostgreSQL) and write, compiled once per database.
const selectCustomerIn = compileOnceIn((db, sellerId: string, mode: string, id: string) =>
  db.selectFrom('customers').selectAll().where('seller_id', '=', sellerId).where('mode', '=', mode).where('id', '=', id),
);
const selectCustomerForUpdate = compileOnceIn((db, sellerId: string, mode: string, id: string) =>
  db.selectFrom('customers').selectAll().where('seller_id', '=', sellerId).where('mode', '=', mode).where('id', '=', id).forUpdate(),
);
const FIXED_COLUMNS: ReadonlySet<string> = new Set(['id', 'seller_id', 'source', 'created_at', 'mode']);
const UPDATED_COLUMNS = CUSTOMER_COLUMNS.filter((column) => !FIXED_COLUMNS.has(column));
// Every update advances the change number (db/outbox-triggers.ts).
const updateCustomerRow = compileOnceIn((db, ...values: string[]) =>
  db
    .updateTable('customers')
    .set({
      ...Object.fromEntries(UPDATED_COLUMNS.map((column, i) => [column, values[i]])),
      event_sequence: sql<number>`event_sequence + 1`,
    })
    .where('seller_id', '=', values[UPDATED_COLUMNS.length]!)
    .where('mode', '=', values[UPDATED_COLUMNS.length + 1]!)
    .where('id', '=', values[UPDATED_COLUMNS.length + 2]!),
);

/**
 * Core's CustomerStore over SQL (SQLite or PostgreSQL through Kysely). Every statement is scoped by
 * seller_id. Creates run under a per-seller write lock so the plan-limit count, the email check, the
 * idempotency record and the insert are one atomic step, also across server processes; the unique index on
 * (seller_id, email_normalized) is the last word on duplicates.
 */
export class SqlCustomerStore implements CustomerStore {
  constructor(private readonly handle: DatabaseHandle) {}

  async findCustomer(tenant: Tenant, id: string): Promise<Customer | undefined> {
    if (this.handle.prepared) return findCustomerPg(this.handle, tenant, id);
    const [row] = (await selectCustomer(this.handle, tenant.sellerId, tenant.mode, id)).rows;
    return row ? customerFromRow(row) : undefined;
  }

  async insertCustomer(customer: Customer, options: InsertOptions): Promise<InsertResult> {
    // PostgreSQL: one round trip (postgres-writes.ts); the steps below are SQLite's, inside its group commit.
    if (this.handle.prepared) return insertCustomerPg(this.handle, customer, options);
    const { writeRun } = this.handle;
    try {
      if (writeRun && !options.idempotency) {
        const row = customerToRow(customer);
        const parameters = [...CUSTOMER_COLUMNS.map((column) => row[column]), customer.seller_id, row.mode, options.customerLimit];
        const { changes } = await writeStatement(this.handle, () => writeRun(INSERT_UNDER_LIMIT, parameters));
        return changes === 1 ? { kind: 'created', customer } : { kind: 'limit_reached' };
      }
      return await writeTransaction(this.handle, async (trx) => {
        // Creates of one seller take turns, across every server process.
        await lockSeller(this.handle, trx, customer.seller_id);
        return this.insertLocked(trx, customer, options);
      });
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
    const { sellerId, mode } = tenantOfCustomer(customer);
    if (idempotency) {
      // The create's own timestamp is "now", as in core's memory store (and under an injected clock).
      const nowIso = customer.created_at;
      const record = await trx
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'response', 'expires_at'])
        .where('seller_id', '=', sellerId)
        .where('mode', '=', mode)
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
        .where('mode', '=', mode)
        .where('expires_at', '<=', nowIso)
        .execute();
    }

    // Kept by triggers on every insert and delete (migration 003): one row, not a count of the seller's customers.
    const [counted] = (await selectCustomerCount(this.handle, trx, sellerId, mode)).rows;
    if (Number(counted?.count ?? 0) >= customerLimit) return { kind: 'limit_reached' };

    const [taken] = (await selectEmailTaken(this.handle, trx, sellerId, mode, emailKey(customer.email))).rows;
    if (taken) return { kind: 'email_taken' };

    const row = customerToRow(customer);
    await insertCustomerRow(this.handle, trx, ...CUSTOMER_COLUMNS.map((column) => row[column]));
    if (idempotency) {
      await trx
        .insertInto('idempotency_keys')
        .values({
          seller_id: sellerId,
          mode,
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
    tenant: Tenant,
    id: string,
    changes: CustomerUpdate,
    updatedAt: string,
  ): Promise<UpdateResult> {
    if (this.handle.prepared) return updateCustomerPg(this.handle, tenant, id, changes, updatedAt);
    const { sellerId, mode } = tenant;
    try {
      return await writeTransaction(this.handle, async (trx) => {
        // PostgreSQL locks the row (other processes' updates wait); SQLite's BEGIN IMMEDIATE already excludes them.
        const select = this.handle.dialect === 'postgres' ? selectCustomerForUpdate : selectCustomerIn;
        const [row] = (await select(this.handle, trx, sellerId, mode, id)).rows;
        if (!row) return { kind: 'not_found' } as const;
        // The merge rule lives in core; the store only writes its result.
        const updated = applyCustomerUpdate(customerFromRow(row), changes, updatedAt);
        const values = customerToRow(updated);
        await updateCustomerRow(this.handle, trx, ...UPDATED_COLUMNS.map((column) => values[column]), sellerId, mode, id);
        return { kind: 'updated', customer: updated } as const;
      });
    } catch (error) {
      // The unique index on (seller_id, email_normalized) decides, also against a concurrent create.
      if (isUniqueViolation(error)) return { kind: 'email_taken' };
      throw error;
    }
  }

  async deleteCustomer(tenant: Tenant, id: string): Promise<boolean> {
    if (this.handle.prepared) return deleteCustomerPg(this.handle, tenant, id);
    const result = await this.handle.db
      .deleteFrom('customers')
      .where('seller_id', '=', tenant.sellerId)
      .where('mode', '=', tenant.mode)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async listCustomers(tenant: Tenant, page: PageRequest): Promise<Customer[]> {
    return listCustomerPage(this.handle, tenant, page);
  }
}
