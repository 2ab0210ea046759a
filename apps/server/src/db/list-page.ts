import { CompiledQuery } from 'kysely';
import type { Customer, PageRequest, Tenant } from '@customers-api/core';
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
  // A row-value comparison, so both databases seek the (seller_id, mode, created_at, id) index to the position.
  { sql: (p: Slot) => `(created_at, id) < (${p()}, ${p()})`, values: (page: PageRequest) => [page.after?.createdAt, page.after?.id] },
] as const;

type Slot = () => string;

/** A tenant as SQL: its seller and its mode, each a parameter or an outer query's column. */
export interface TenantSql {
  seller: string;
  mode: string;
}

/**
 * The customer fields a page row holds (not `email_normalized`; `livemode` for the row's `mode`), in the Customer's
 * order: each row becomes the customer in place.
 */
export const PAGE_COLUMNS: readonly string[] = CUSTOMER_COLUMNS.filter((column) => column !== 'email_normalized').map(
  (column) => (column === 'mode' ? 'livemode' : column),
);
const COLUMNS = PAGE_COLUMNS.map((column) => (column === 'livemode' ? `(mode = 'live') as livemode` : column)).join(', ');
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

/** The status filter's place in {@link FILTERS} (PostgreSQL may write its value into the text). */
const STATUS_FILTER = 1;

/**
 * The page's select for a shape: the tenant as SQL (its seller and mode: parameters, or columns of an outer query),
 * the filters' slots, then the limit's (a slot or a number); `status`, when given, is written in as a literal
 * instead of taking a slot.
 */
function pageSelect(shape: number, tenant: TenantSql, slot: Slot, limit: Slot, status?: string): string {
  const conditions = [`seller_id = ${tenant.seller}`, `mode = ${tenant.mode}`];
  FILTERS.forEach((filter, i) => {
    if (!(shape & (1 << i))) return;
    conditions.push(i === STATUS_FILTER && status !== undefined ? `status = '${status}'` : filter.sql(slot));
  });
  return `select ${COLUMNS} from customers where ${conditions.join(' and ')} order by created_at desc, id desc limit ${limit()}`;
}

// PostgreSQL planned a page whose LIMIT is a parameter again on every execution: a generic plan counts an unknown
// limit as a tenth of the seller's rows, so it never looks as cheap as the custom plans and PostgreSQL keeps
// planning (pg_prepared_statements: 0 generic plans; about 50 of the page's 120 µs of PostgreSQL CPU). With the
// limit written in the text the generic plan is as cheap and is planned once per connection. The status filter is
// written in for the same reason: once the table's statistics hold several statuses (after any PATCH and an
// autoanalyze), a generic plan counts an unknown status as one value of three, the custom plan for 'active' as most
// rows, and PostgreSQL planned every filtered page anew (the full bench: about 170 µs more PostgreSQL CPU per page,
// once autoanalyze had run). Every limit and status of every shape would be up to 3,200 × 4 statements per
// connection: the first LITERAL_STATEMENTS texts get them written in, any other takes both as parameters
// (planned per execution, as before).
const LITERAL_STATEMENTS = 64;
// A status core has validated is one of the API's lower-case words: only such a value is ever written into SQL text.
const LITERAL_STATUS = /^[a-z]{1,32}$/;
const postgresStatements = new Map<string, PostgresPageStatement>();
let literalStatements = 0;

/**
 * A PostgreSQL page statement and whether its limit and status (when filtered by one) are written in its text; when
 * not, they are parameters (see {@link pageParameters}).
 */
export interface PostgresPageStatement {
  statement: PreparedStatement;
  literal: boolean;
}

/**
 * PostgreSQL: the named statement for a page's shape, limit and status, one text each (see LITERAL_STATEMENTS),
 * made once by `build` from the page's select, whose parameters are numbered from `$first` in the order of
 * {@link pageParameters}; `seller` is the seller as SQL (a parameter, or a column of the outer statement).
 * `literal` false takes the limit and status as parameters (a limit that is no positive integer, a status that is
 * no lower-case word, or past the first LITERAL_STATEMENTS texts).
 *
 * @example
 * const { statement, literal } = postgresPageStatement('customer_list_v3', page, { seller: '$1', mode: '$2' }, 3, (select) => select);
 */
export function postgresPageStatement(
  name: string,
  page: PageRequest,
  seller: TenantSql,
  first: number,
  build: (select: string) => string,
  literal = Number.isSafeInteger(page.limit) && page.limit > 0 && (page.status === undefined || LITERAL_STATUS.test(page.status)),
): PostgresPageStatement {
  const shape = shapeOf(page);
  const key = literal ? `${name}_${shape}_${page.limit}${page.status === undefined ? '' : `_${page.status}`}` : `${name}_${shape}`;
  let found = postgresStatements.get(key);
  if (found) return found;
  if (literal && literalStatements >= LITERAL_STATEMENTS) return postgresPageStatement(name, page, seller, first, build, false);
  let n = first - 1;
  const slot: Slot = () => `$${++n}`;
  const text = literal
    ? build(pageSelect(shape, seller, slot, () => String(page.limit), page.status))
    : build(pageSelect(shape, seller, slot, slot));
  found = { statement: { name: key, text }, literal };
  if (literal) literalStatements++;
  postgresStatements.set(key, found);
  return found;
}

/**
 * The page's parameters after the seller's: the filters it uses, then the limit; with `literal` (a statement from
 * {@link postgresPageStatement} with the limit and status in its text) neither the status nor the limit.
 */
export function pageParameters(page: PageRequest, literal = false): unknown[] {
  const shape = shapeOf(page);
  const parameters: unknown[] = [];
  FILTERS.forEach((filter, i) => {
    if (shape & (1 << i) && !(literal && i === STATUS_FILTER)) parameters.push(...filter.values(page));
  });
  if (!literal) parameters.push(page.limit);
  return parameters;
}

/**
 * One page of a seller's customers, newest first (`created_at`, then `id`, descending), at most `page.limit` rows,
 * only those matching every filter given: one query on the (seller_id, created_at, id) index.
 *
 * @example
 * const customers = await listCustomerPage(handle, sellerId, { limit: 21, status: 'active' });
 */
export async function listCustomerPage(handle: DatabaseHandle, tenant: Tenant, page: PageRequest): Promise<Customer[]> {
  return (await pageRows(handle, tenant, page)).map(asCustomer);
}

type Row = Record<string, unknown>;

/** A row of {@link COLUMNS} as the customer it holds, changed in place (no copy per row): timestamps and JSON. */
export function asCustomer(row: Row): Customer {
  row.address_data = fromJson(row.address_data);
  row.postal_redirect_address = fromJson(row.postal_redirect_address);
  row.created_at = toIso(row.created_at as Date | string);
  row.updated_at = toIso(row.updated_at as Date | string);
  // SQLite answers the comparison 1 or 0, PostgreSQL a boolean.
  row.livemode = row.livemode === true || row.livemode === 1;
  return row as unknown as Customer;
}

async function pageRows(handle: DatabaseHandle, { sellerId, mode }: Tenant, page: PageRequest): Promise<Row[]> {
  if (handle.prepared) {
    const { statement, literal } = postgresPageStatement('customer_list_v3', page, { seller: '$1', mode: '$2' }, 3, (select) => select);
    return (await handle.prepared(statement, [sellerId, mode, ...pageParameters(page, literal)])) as Row[];
  }
  const shape = shapeOf(page);
  const parameters = [sellerId, mode, ...pageParameters(page)];
  let sql = sqliteStatements.get(shape);
  if (!sql) sqliteStatements.set(shape, (sql = pageSelect(shape, { seller: '?', mode: '?' }, () => '?', () => '?')));
  if (handle.readCommitted) return handle.readCommitted(sql, parameters) as Row[];
  return (await handle.db.executeQuery<Row>(CompiledQuery.raw(sql, parameters))).rows;
}
