import { emailKey, type Customer, type CustomerUpdate, type InsertOptions, type InsertResult, type Tenant, type UpdateResult } from '@customers-api/core';
import type { DatabaseHandle, PreparedStatement } from './connect.js';
import { CUSTOMER_COLUMNS, customerFromRow, customerToRow, fromJson, toJson, type CustomerRow } from './rows.js';
import { isUniqueViolation } from './unique-violation.js';

// PostgreSQL's side of SqlCustomerStore: every call is one named prepared statement, one round trip, no explicit
// transaction (a statement is atomic on its own; the create's function locks what it decides on).

const RETURNING = CUSTOMER_COLUMNS.join(', ');

const FIND: PreparedStatement = {
  name: 'customer_find_v2',
  text: `select ${RETURNING} from customers where seller_id = $1 and mode = $2 and id = $3`,
};
const CREATE: PreparedStatement = {
  name: 'customer_create_v2',
  text: `select outcome, replay_response, replay_fingerprint from customers_create(${Array.from({ length: 21 }, (_, i) => `$${i + 1}`).join(', ')})`,
};
const DELETE: PreparedStatement = {
  name: 'customer_delete_v2',
  text: 'delete from customers where seller_id = $1 and mode = $2 and id = $3 returning id',
};

export async function findCustomerPg(handle: DatabaseHandle, { sellerId, mode }: Tenant, id: string): Promise<Customer | undefined> {
  const [row] = (await handle.prepared!(FIND, [sellerId, mode, id])) as CustomerRow[];
  return row && customerFromRow(row);
}

/** A create in one call of the `customers_create` function (migration 021), which decides in the store's order. */
export async function insertCustomerPg(
  handle: DatabaseHandle,
  customer: Customer,
  { customerLimit, idempotency }: InsertOptions,
): Promise<InsertResult> {
  const row = customerToRow(customer);
  const parameters = [
    ...CUSTOMER_COLUMNS.map((column) => row[column]),
    customerLimit,
    idempotency?.key ?? null,
    idempotency?.fingerprint ?? null,
    idempotency?.expiresAt ?? null,
    idempotency ? JSON.stringify(customer) : null,
  ];
  type Outcome = { outcome: InsertResult['kind']; replay_response: unknown; replay_fingerprint: string | null };
  let result: Outcome;
  try {
    result = ((await handle.prepared!(CREATE, parameters)) as Outcome[])[0]!;
  } catch (error) {
    // A concurrent create with the same email got in first: the unique index decides.
    if (isUniqueViolation(error)) return { kind: 'email_taken' };
    throw error;
  }
  switch (result.outcome) {
    case 'created':
      return { kind: 'created', customer };
    case 'idempotent_replay':
      return {
        kind: 'idempotent_replay',
        customer: fromJson<Customer>(result.replay_response),
        fingerprint: result.replay_fingerprint!,
      };
    default:
      return { kind: result.outcome as 'limit_reached' | 'email_taken' };
  }
}

/**
 * A partial update as one `UPDATE … RETURNING`: it sets exactly the columns core's `applyCustomerUpdate` would
 * change (a property present in `changes`: `null` clears a nullable one, a required one is only ever replaced) and
 * `updated_at`; the row lock is the UPDATE's own. Missing row: `not_found`; a taken email: the unique index.
 */
export async function updateCustomerPg(
  handle: DatabaseHandle,
  { sellerId, mode }: Tenant,
  id: string,
  changes: CustomerUpdate,
  updatedAt: string,
): Promise<UpdateResult> {
  const { statement, values } = updateStatementFor(changes);
  let rows: CustomerRow[];
  try {
    rows = (await handle.prepared!(statement, [sellerId, mode, id, updatedAt, ...values])) as CustomerRow[];
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: 'email_taken' };
    throw error;
  }
  const [row] = rows;
  return row ? { kind: 'updated', customer: customerFromRow(row) } : { kind: 'not_found' };
}

type Change = readonly [column: string, value: (changes: CustomerUpdate) => unknown];
const has = (changes: CustomerUpdate, key: keyof CustomerUpdate) => Object.prototype.hasOwnProperty.call(changes, key);
const REQUIRED: ReadonlyArray<keyof CustomerUpdate> = ['first_name', 'last_name', 'email', 'status'];
const NULLABLE: ReadonlyArray<keyof CustomerUpdate> = ['company_name', 'legal_entity', 'language'];
const ADDRESSES: ReadonlyArray<keyof CustomerUpdate> = ['address_data', 'postal_redirect_address'];

/** The columns a change writes, in a fixed order, so each combination of properties is one prepared statement. */
function changesOf(changes: CustomerUpdate): Change[] {
  const list: Change[] = [];
  for (const key of REQUIRED) {
    if (changes[key] === undefined || changes[key] === null) continue;
    list.push([key, (c) => c[key]]);
    if (key === 'email') list.push(['email_normalized', (c) => emailKey(c.email!)]);
  }
  for (const key of NULLABLE) if (has(changes, key)) list.push([key, (c) => c[key] ?? null]);
  for (const key of ADDRESSES) if (has(changes, key)) list.push([key, (c) => toJson(c[key])]);
  return list;
}

const updateStatements = new Map<string, PreparedStatement>();

function updateStatementFor(changes: CustomerUpdate): { statement: PreparedStatement; values: unknown[] } {
  const list = changesOf(changes);
  const shape = list.map(([column]) => column).join(',');
  let statement = updateStatements.get(shape);
  if (!statement) {
    // Every update advances the change number (db/outbox-triggers.ts).
    const sets = ['updated_at = $4', 'event_sequence = event_sequence + 1', ...list.map(([column], i) => `${column} = $${i + 5}`)];
    statement = {
      name: `customer_update_v2_${updateStatements.size}`,
      text: `update customers set ${sets.join(', ')} where seller_id = $1 and mode = $2 and id = $3 returning ${RETURNING}`,
    };
    updateStatements.set(shape, statement);
  }
  return { statement, values: list.map(([, value]) => value(changes)) };
}

export async function deleteCustomerPg(handle: DatabaseHandle, { sellerId, mode }: Tenant, id: string): Promise<boolean> {
  return (await handle.prepared!(DELETE, [sellerId, mode, id])).length > 0;
}
