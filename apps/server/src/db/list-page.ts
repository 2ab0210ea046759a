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

/** The customer fields a page row holds (not `email_normalized`), in the Customer's order: each row becomes the customer in place. */
export const PAGE_COLUMNS: readonly string[] = CUSTOMER_COLUMNS.filter((column) => column !== 'email_normalized');
const COLUMNS = PAGE_COLUMNS.join(', ');
/** SQLite: the page's SQL text per shape, written once. */
const sqliteStatements = new Map<number, string>();

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

/** The page's select for a shape: the seller as SQL (a parameter, or a column of an outer query), the filters' slots, then the limit's (a slot or a number). */
function pageSelect(shape: number, seller: string, slot: Slot, limit: Slot): string {
  const conditions = [`seller_id = ${seller}`];
  FILTERS.forEach((filter, i) => {
    if (shape & (1 << i)) conditions.push(filter.sql(slot));
  });
  return `select ${COLUMNS} from customers where ${conditions.join(' and ')} order by created_at desc, id desc limit ${limit()}`;
}

// PostgreSQL planned a page whose LIMIT is a parameter again on every execution: a generic plan counts an unknown
// limit as a tenth of the seller's rows, so it never looks as cheap as the custom plans and PostgreSQL keeps
// planning (pg_prepared_statements: 0 generic plans; about 50 of the page's 120 µs of PostgreSQL CPU). With the
// limit written in the text the generic plan is as cheap and is planned once per connection. Every limit of every
// shape would be up to 3,200 statements per connection: the first LITERAL_LIMIT_STATEMENTS texts get their limit
// written in, any other takes it as a parameter (planned per execution, as before).
const LITERAL_LIMIT_STATEMENTS = 64;
const postgresStatements = new Map<string, PostgresPageStatement>();
let literalLimitStatements = 0;

/** A PostgreSQL page statement and whether its limit is a parameter (then the last one, see {@link pageParameters}). */
export interface PostgresPageStatement {
  statement: PreparedStatement;
  limitIsParameter: boolean;
}

/**
 * PostgreSQL: the named statement for a page's shape and limit, one text each (see LITERAL_LIMIT_STATEMENTS), made
 * once by `build` from the page's select, whose parameters are numbered from `$first` in the order of
 * {@link pageParameters}; `seller` is the seller as SQL (a parameter, or a column of the outer statement).
 *
 * @example
 * const { statement, limitIsParameter } = postgresPageStatement('customer_list_v2', page, '$1', 2, (select) => select);
 */
export function postgresPageStatement(
  name: string,
  page: PageRequest,
  seller: string,
  first: number,
  build: (select: string) => string,
): PostgresPageStatement {
  const shape = shapeOf(page);
  const literal = Number.isSafeInteger(page.limit) && page.limit > 0;
  const key = literal ? `${name}_${shape}_${page.limit}` : `${name}_${shape}`;
  let found = postgresStatements.get(key);
  if (found) return found;
  if (literal && literalLimitStatements >= LITERAL_LIMIT_STATEMENTS) {
    return postgresPageStatement(name, { ...page, limit: Number.NaN }, seller, first, build);
  }
  let n = first - 1;
  const slot: Slot = () => `$${++n}`;
  const text = build(pageSelect(shape, seller, slot, literal ? () => String(page.limit) : slot));
  found = { statement: { name: key, text }, limitIsParameter: !literal };
  if (literal) literalLimitStatements++;
  postgresStatements.set(key, found);
  return found;
}

/** The page's parameters after the seller's: the filters it uses, then the limit when the statement takes it. */
export function pageParameters(page: PageRequest, limitIsParameter = true): unknown[] {
  const shape = shapeOf(page);
  const parameters: unknown[] = [];
  FILTERS.forEach((filter, i) => {
    if (shape & (1 << i)) parameters.push(...filter.values(page));
  });
  if (limitIsParameter) parameters.push(page.limit);
  return parameters;
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
export function asCustomer(row: Row): Customer {
  row.address_data = fromJson(row.address_data);
  row.postal_redirect_address = fromJson(row.postal_redirect_address);
  row.created_at = toIso(row.created_at as Date | string);
  row.updated_at = toIso(row.updated_at as Date | string);
  return row as unknown as Customer;
}

async function pageRows(handle: DatabaseHandle, sellerId: string, page: PageRequest): Promise<Row[]> {
  if (handle.prepared) {
    const { statement, limitIsParameter } = postgresPageStatement('customer_list_v2', page, '$1', 2, (select) => select);
    return (await handle.prepared(statement, [sellerId, ...pageParameters(page, limitIsParameter)])) as Row[];
  }
  const shape = shapeOf(page);
  const parameters = [sellerId, ...pageParameters(page)];
  let sql = sqliteStatements.get(shape);
  if (!sql) sqliteStatements.set(shape, (sql = pageSelect(shape, '?', () => '?', () => '?')));
  if (handle.readCommitted) return handle.readCommitted(sql, parameters) as Row[];
  return (await handle.db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
}
