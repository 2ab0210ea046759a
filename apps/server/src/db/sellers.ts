import { randomUUID } from 'node:crypto';
import { canonicalUuid } from './uuid.js';
import type { DatabaseHandle } from './connect.js';
import { toIso } from './rows.js';
import { LATEST_API_VERSION } from '@customers-api/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Inside a write transaction (write-transaction.ts), makes the seller's writers of every process take turns.
 * PostgreSQL: locks the seller's row (`FOR NO KEY UPDATE`: conflicts with itself, not with the foreign-key checks of
 * other writes). SQLite: nothing to do, `BEGIN IMMEDIATE` already holds the database's write lock.
 *
 * @example
 * await writeTransaction(handle, async (trx) => { await lockSeller(handle, trx, sellerId); ... });
 */
export async function lockSeller(handle: DatabaseHandle, trx: Kysely<Database>, sellerId: string): Promise<void> {
  if (handle.dialect === 'postgres') await trx.selectFrom('sellers').select('id').where('id', '=', sellerId).forNoKeyUpdate().execute();
}

const columnsOf = new WeakMap<DatabaseHandle, Promise<Set<string>>>();

/**
 * The sellers table's columns on this database, read once per handle: databases still on an older schema
 * (migration tests) lack the newest ones, and a seller is written without them there.
 */
function sellerColumns(handle: DatabaseHandle): Promise<Set<string>> {
  let columns = columnsOf.get(handle);
  if (!columns) {
    columns = (
      handle.dialect === 'postgres'
        ? sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'sellers' and table_schema = current_schema()`
        : sql<{ name: string }>`select name from pragma_table_info('sellers')`
    )
      .execute(handle.db)
      .then(({ rows }) => new Set(rows.map((row) => row.name)));
    columnsOf.set(handle, columns);
  }
  return columns;
}

export interface Seller {
  id: string;
  name: string;
  plan: string;
  /** The per-seller override of the plan's limit, or null. */
  customer_limit: number | null;
  /** The seller's own API rate limit in requests per second (0: not limited), or null for the server's. */
  rate_limit: number | null;
  /** The seller's own cap on webhook endpoints, or null for the server's default. */
  webhook_endpoint_limit: number | null;
  /** The seller's own cap on unexpired API keys, or null for the server's default. */
  key_limit: number | null;
  /** The seller's own cap on waiting webhook deliveries (migration 024), or null for the server's default. */
  waiting_delivery_limit?: number | null;
  /** The API version the seller is pinned to: requests without `Customers-Version` get it (null: the latest). */
  api_version: string | null;
  created_at: string;
}

export interface NewSeller {
  name: string;
  plan: string;
  customerLimit?: number | null;
  rateLimit?: number | null;
  webhookEndpointLimit?: number | null;
  keyLimit?: number | null;
  /** The API version to pin the seller to; the latest when omitted. */
  apiVersion?: string;
}

export async function createSeller(handle: DatabaseHandle, input: NewSeller, now = new Date()): Promise<Seller> {
  const seller: Seller = {
    id: randomUUID(),
    name: input.name,
    plan: input.plan,
    customer_limit: input.customerLimit ?? null,
    rate_limit: input.rateLimit ?? null,
    webhook_endpoint_limit: input.webhookEndpointLimit ?? null,
    key_limit: input.keyLimit ?? null,
    api_version: input.apiVersion ?? LATEST_API_VERSION,
    created_at: now.toISOString(),
  };
  // The cap's column is written only when set, the version's only where the schema has it: databases still on an
  // older schema (migration tests) lack them.
  const { webhook_endpoint_limit: endpointLimit, key_limit: keyLimit, api_version: apiVersion, ...row } = seller;
  const pinned = (await sellerColumns(handle)).has('api_version');
  await handle.db
    .insertInto('sellers')
    .values({
      ...row,
      ...(endpointLimit !== null && { webhook_endpoint_limit: endpointLimit }),
      ...(keyLimit !== null && { key_limit: keyLimit }),
      ...(pinned && { api_version: apiVersion }),
    })
    .execute();
  return pinned ? seller : { ...seller, api_version: null };
}

/** The seller with this id, or undefined (also for an id that is not a UUID). */
export async function findSeller(handle: DatabaseHandle, idArg: string): Promise<Seller | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const row = await handle.db.selectFrom('sellers').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { ...row, created_at: toIso(row.created_at) } : undefined;
}

/** The seller settings an operator or the seller may change after creation, as their columns. */
type SellerSettings = Partial<Pick<Seller, 'rate_limit' | 'webhook_endpoint_limit' | 'key_limit' | 'waiting_delivery_limit' | 'api_version'>>;

/** Changes some of a seller's settings; the updated seller, or undefined when there is none. */
export async function updateSeller(handle: DatabaseHandle, idArg: string, settings: SellerSettings): Promise<Seller | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const result = await handle.db.updateTable('sellers').set(settings).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n ? findSeller(handle, id) : undefined;
}

/** Sets (or, with null, clears) a seller's own rate limit; the updated seller, or undefined when there is none. */
export function setSellerRateLimit(handle: DatabaseHandle, idArg: string, rateLimit: number | null): Promise<Seller | undefined> {
  return updateSeller(handle, idArg, { rate_limit: rateLimit });
}

/** Sets (or, with null, clears) a seller's own cap on webhook endpoints; the updated seller, or undefined. */
export function setSellerWebhookEndpointLimit(handle: DatabaseHandle, idArg: string, limit: number | null): Promise<Seller | undefined> {
  return updateSeller(handle, idArg, { webhook_endpoint_limit: limit });
}

/** Sets (or, with null, clears) a seller's own cap on unexpired API keys; the updated seller, or undefined. */
export function setSellerKeyLimit(handle: DatabaseHandle, idArg: string, limit: number | null): Promise<Seller | undefined> {
  return updateSeller(handle, idArg, { key_limit: limit });
}

/** How many customers the seller has: the rows themselves (the plan check reads the kept count instead). */
export async function countCustomers(handle: DatabaseHandle, sellerId: string): Promise<number> {
  const { count } = await handle.db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('seller_id', '=', sellerId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function countSellers(handle: DatabaseHandle): Promise<number> {
  const { count } = await handle.db
    .selectFrom('sellers')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Pins a seller to an API version; the updated seller, or undefined when there is none. */
export function setSellerApiVersion(handle: DatabaseHandle, idArg: string, version: string): Promise<Seller | undefined> {
  return updateSeller(handle, idArg, { api_version: version });
}
