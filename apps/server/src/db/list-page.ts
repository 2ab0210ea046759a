import { CompiledQuery } from 'kysely';
import type { Customer, PageRequest } from '@customers-api/core';
import type { DatabaseHandle, PreparedStatement } from './connect.js';
import { CUSTOMER_COLUMNS, fromJson, toIso } from './rows.js';

// The list's one query, written once as SQL text per combination of filters (at most 32) instead of being built and
// compiled by Kysely and queued on its connection on every request (measured: 110-120 µs of CPU per page of 21 rows
// that way, against 90-95 µs for the same SQL on a prepared statement). SQLite files read it on the read connection
// (committed data, never queued behind a write transaction), PostgreSQL as a named prepared statement: what the GET
// path does.

/** The optional conditions, in the order their parameters follow the seller's. */
const FILTERS = [
  { sql: (p: Slot) => `email_normalized = ${p()}`, values: (page: PageRequest) => [page.emailKey] },
  { sql: (p: Slot) => `status = ${p()}`, values: (page: PageRequest) => [page.status] },
  { sql: (p: Slot) => `created_at >= ${p()}`, values: (page: PageRequest) => [page.createdFrom] },
  { sql: (p: Slot) => `created_at < ${p()}`, values: (page: PageRequest) => [page.createdBefore] },
  // A row-value comparison, so both databases seek the (seller_id, created_at, id) index to the position.
  { sql: (p: Slot) => `(created_at, id) < (${p()}, ${p()})`, values: (page: PageRequest) => [page.after?.createdAt, page.after?.id] },
] as const;

type Slot = () => string;

// A customer's fields only (not `email_normalized`), in the Customer's order: each row becomes the customer in place.
const COLUMNS = CUSTOMER_COLUMNS.filter((column) => column !== 'email_normalized').join(', ');
const statements = { sqlite: new Map<number, string>(), postgres: new Map<number, PreparedStatement>() };

/** Which filters a page uses, as a bit mask over {@link FILTERS}. */
function shapeOf(page: PageRequest): number {
  return (
    (page.emailKey !== undefined ? 1 : 0) |
    (page.status !== undefined ? 2 : 0) |
    (page.createdFrom !== undefined ? 4 : 0) |
    (page.createdBefore !== undefined ? 8 : 0) |
    (page.after !== undefined ? 16 : 0)
  );
}

function sqlFor(shape: number, postgres: boolean): string {
  let n = 0;
  const slot: Slot = () => (postgres ? `$${++n}` : (n++, '?'));
  const conditions = [`seller_id = ${slot()}`];
  FILTERS.forEach((filter, i) => {
    if (shape & (1 << i)) conditions.push(filter.sql(slot));
  });
  return `select ${COLUMNS} from customers where ${conditions.join(' and ')} order by created_at desc, id desc limit ${slot()}`;
}

/**
 * One page of a seller's customers, newest first (`created_at`, then `id`, descending), at most `page.limit` rows,
 * only those matching every filter given: one query on the (seller_id, created_at, id) index.
 *
 * @example
 * const customers = await listCustomerPage(handle, sellerId, { limit: 21, status: 'active' });
 */
export async function listCustomerPage(handle: DatabaseHandle, sellerId: string, page: PageRequest): Promise<Customer[]> {
  return (await pageRows(handle, sellerId, page)).map(asCustomer);
}

type Row = Record<string, unknown>;

/** A row of {@link COLUMNS} as the customer it holds, changed in place (no copy per row): timestamps and JSON. */
function asCustomer(row: Row): Customer {
  row.address_data = fromJson(row.address_data);
  row.postal_redirect_address = fromJson(row.postal_redirect_address);
  row.created_at = toIso(row.created_at as Date | string);
  row.updated_at = toIso(row.updated_at as Date | string);
  return row as unknown as Customer;
}

async function pageRows(handle: DatabaseHandle, sellerId: string, page: PageRequest): Promise<Row[]> {
  const shape = shapeOf(page);
  const parameters: unknown[] = [sellerId];
  FILTERS.forEach((filter, i) => {
    if (shape & (1 << i)) parameters.push(...filter.values(page));
  });
  parameters.push(page.limit);
  if (handle.prepared) {
    let statement = statements.postgres.get(shape);
    if (!statement) statements.postgres.set(shape, (statement = { name: `customer_list_v1_${shape}`, text: sqlFor(shape, true) }));
    return (await handle.prepared(statement, parameters)) as Row[];
  }
  let sql = statements.sqlite.get(shape);
  if (!sql) statements.sqlite.set(shape, (sql = sqlFor(shape, false)));
  if (handle.readCommitted) return handle.readCommitted(sql, parameters) as Row[];
  return (await handle.db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
}
