import { randomUUID } from 'node:crypto';
import { apiKeyDisplayPrefix, apiKeyKindFor, generateApiKey, hashApiKey, type ApiKeyMode } from '@customers-api/core';
import { canonicalUuid } from './uuid.js';
import { compileOnce } from './compile-once.js';
import type { DatabaseHandle } from './connect.js';
import { CUSTOMER_COLUMNS, customerFromRow, toIso, toIsoOrNull, type CustomerRow } from './rows.js';
import type { Customer, PageRequest } from '@customers-api/core';
import { asCustomer, PAGE_COLUMNS, pageParameters, postgresPageStatement } from './list-page.js';

/** What listings show: never the key or its hash. */
export interface ApiKeyInfo {
  id: string;
  seller_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** Which of the seller's data the key acts on. */
  mode: ApiKeyMode;
  /** A restricted key's granted scopes; null for a secret key, which holds every scope. */
  scopes: string[] | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The full key: shown once, at creation, and stored nowhere. */
  key: string;
}

/** The seller an active key acts for, as the auth plugin needs it. */
export interface ActiveKey {
  keyId: string;
  sellerId: string;
  plan: string;
  customerLimitOverride: number | null;
  /** The seller's own rate limit, or null for the server's default. */
  rateLimit: number | null;
  /** The API version the seller is pinned to, or null for the latest. */
  apiVersion: string | null;
  lastUsedAt: string | null;
  /** Which of the seller's data the key acts on. */
  mode: ApiKeyMode;
  /** A restricted key's granted scopes; null for a secret key (every scope). */
  scopes: string[] | null;
}

/** The listing columns of api_keys (never the key's hash). */
export const API_KEY_INFO_COLUMNS = [
  'id',
  'seller_id',
  'name',
  'prefix',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
  'mode',
  'scopes',
] as const;

/** A listing row as read (timestamps as the dialect gives them, scopes as stored JSON) into an {@link ApiKeyInfo}. */
export function apiKeyInfoOf(row: {
  id: string;
  seller_id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  mode: ApiKeyMode;
  scopes: string | null;
}): ApiKeyInfo {
  return {
    ...row,
    created_at: toIso(row.created_at),
    last_used_at: toIsoOrNull(row.last_used_at),
    expires_at: toIsoOrNull(row.expires_at),
    revoked_at: toIsoOrNull(row.revoked_at),
    scopes: parseScopes(row.scopes),
  };
}

/** The stored scopes column (a JSON array, or null for a secret key) as a list. */
export function parseScopes(stored: string | null | string[]): string[] | null {
  if (stored === null) return null;
  return Array.isArray(stored) ? stored : (JSON.parse(stored) as string[]);
}

/** How often last_used_at is written at most per key, so reads do not all become writes. */
export const LAST_USED_PRECISION_MS = 60_000;

/**
 * Creates a key: a live secret key unless told otherwise. `scopes` makes it a restricted key (`rk_`) holding only
 * those scopes (the caller checks the names); null or omitted, a secret key (`sk_`) holding every scope. The mode
 * picks the prefix (`_live_` or `_test_`) and which of the seller's data the key acts on.
 */
export async function createApiKey(
  handle: DatabaseHandle,
  input: { sellerId: string; name: string; expiresAt?: string | null; mode?: ApiKeyMode; scopes?: readonly string[] | null },
  now = new Date(),
): Promise<CreatedApiKey> {
  const mode = input.mode ?? 'live';
  const scopes = input.scopes ? [...new Set(input.scopes)].sort() : null;
  const key = generateApiKey({ kind: apiKeyKindFor(scopes), mode });
  const info: ApiKeyInfo = {
    id: randomUUID(),
    seller_id: input.sellerId,
    name: input.name,
    prefix: apiKeyDisplayPrefix(key),
    created_at: now.toISOString(),
    last_used_at: null,
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    mode,
    scopes,
  };
  await handle.db
    .insertInto('api_keys')
    .values({ ...info, scopes: scopes && JSON.stringify(scopes), key_hash: await hashApiKey(key) })
    .execute();
  return { ...info, key };
}

export async function listApiKeys(handle: DatabaseHandle, sellerIdArg: string): Promise<ApiKeyInfo[]> {
  const sellerId = canonicalUuid(sellerIdArg);
  if (!sellerId) return [];
  const rows = await handle.db
    .selectFrom('api_keys')
    .select(API_KEY_INFO_COLUMNS)
    .where('seller_id', '=', sellerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(apiKeyInfoOf);
}

/** Which keys an operation may touch: any (the operator's CLI), or only one seller's (the dashboard). */
export interface KeyScope {
  sellerId?: string;
}

/** Revokes a key from now on; false when there is no such key (in scope). Revoking twice keeps the first time. */
export async function revokeApiKey(
  handle: DatabaseHandle,
  idArg: string,
  now = new Date(),
  { sellerId }: KeyScope = {},
): Promise<boolean> {
  const id = canonicalUuid(idArg);
  if (!id) return false;
  const exists = await handle.db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', id)
    .$if(sellerId !== undefined, (qb) => qb.where('seller_id', '=', sellerId!))
    .executeTakeFirst();
  if (!exists) return false;
  await handle.db
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return true;
}

/** Sets when a key stops working (in scope); false when there is no such key. */
export async function setApiKeyExpiry(
  handle: DatabaseHandle,
  idArg: string,
  expiresAt: string,
  { sellerId }: KeyScope = {},
): Promise<boolean> {
  const id = canonicalUuid(idArg);
  if (!id) return false;
  const result = await handle.db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt })
    .where('id', '=', id)
    .$if(sellerId !== undefined, (qb) => qb.where('seller_id', '=', sellerId!))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The seller a key belongs to, or undefined (also for an id that is not a UUID). */
export async function keySellerId(handle: DatabaseHandle, idArg: string): Promise<string | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const row = await handle.db.selectFrom('api_keys').select('seller_id').where('id', '=', id).executeTakeFirst();
  return row?.seller_id;
}

/** Deletes a key for good; false when there is no such key (in scope). */
export async function deleteApiKey(handle: DatabaseHandle, idArg: string, { sellerId }: KeyScope = {}): Promise<boolean> {
  const id = canonicalUuid(idArg);
  if (!id) return false;
  const result = await handle.db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .$if(sellerId !== undefined, (qb) => qb.where('seller_id', '=', sellerId!))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// Runs on every authenticated request: compiled once (the database is still asked every time).
const selectKeyByHash = compileOnce((db, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('sellers', 'sellers.id', 'api_keys.seller_id')
    .select([
      'api_keys.id as keyId',
      'api_keys.seller_id as sellerId',
      'api_keys.last_used_at as lastUsedAt',
      'api_keys.expires_at as expiresAt',
      'api_keys.revoked_at as revokedAt',
      'sellers.plan as plan',
      'sellers.customer_limit as customerLimitOverride',
      'sellers.rate_limit as rateLimit',
      'sellers.api_version as apiVersion',
      'api_keys.mode as mode',
      'api_keys.scopes as scopes',
    ])
    .where('api_keys.key_hash', '=', keyHash),
);

type KeyByHashRow = Awaited<ReturnType<typeof selectKeyByHash>>['rows'][number];

/** Rows of found keys by hash (SQLite), valid while the handle's `keysVersion()` is `version`. */
interface FoundKeys {
  version: number;
  rows: Map<string, KeyByHashRow>;
}

const foundKeysOf = new WeakMap<DatabaseHandle['db'], FoundKeys>();

/** Found keys kept per database at most (only keys that exist are kept: wrong keys never grow it). */
const MAX_FOUND_KEYS = 10_000;

/**
 * The key with this SHA-256 hash if it is neither revoked nor expired at `now`, so a revocation takes effect from
 * the next request on in every process. PostgreSQL: read from the database on every request (one indexed lookup;
 * other processes change keys without telling this one). SQLite: a key's row, once read, is answered from memory
 * while the handle's `keysVersion()` says no key or seller can have changed (no commit by any other connection, no
 * write to those tables by this one, no transaction open); revocation and expiry are still decided against `now`
 * on every lookup. On a busy file the read connection finds its page cache reset by every commit, so this read
 * costs several times what the same read costs warm.
 */
export async function findActiveKey(
  handle: DatabaseHandle,
  keyHash: string,
  now = new Date(),
): Promise<ActiveKey | undefined> {
  if (handle.prepared) {
    const [usable] = (await handle.prepared(POSTGRES_ACTIVE_KEY, [keyHash, now.toISOString()])) as ActiveKeyRow[];
    return usable && activeKeyOf(usable);
  }
  // Taken before the read: a change committed after it changes the version, so the row is not kept past it.
  const version = handle.keysVersion?.();
  let found: FoundKeys | undefined;
  let row: KeyByHashRow | undefined;
  if (version !== undefined) {
    found = foundKeysOf.get(handle.db);
    if (found?.version !== version) {
      found = { version, rows: new Map() };
      foundKeysOf.set(handle.db, found);
    }
    row = found.rows.get(keyHash);
  }
  if (!row) {
    [row] = (await selectKeyByHash(handle, keyHash)).rows;
    if (row && found) {
      if (found.rows.size >= MAX_FOUND_KEYS) found.rows.clear();
      found.rows.set(keyHash, row);
    }
  }
  return row && isUsable(row.revokedAt, row.expiresAt, now) ? activeKeyOf(row) : undefined;
}

/** SQLite's half of the usable-key rule (PostgreSQL's is USABLE_KEY): not revoked, not expired at `now`. */
function isUsable(revokedAt: unknown, expiresAtValue: Date | string | null, now: Date): boolean {
  if (revokedAt !== null) return false;
  const expiresAt = toIsoOrNull(expiresAtValue);
  return expiresAt === null || Date.parse(expiresAt) > now.getTime();
}

const KEY_COLUMNS = `k.id as "keyId", k.seller_id as "sellerId", k.last_used_at as "lastUsedAt",
  s.plan as plan, s.customer_limit as "customerLimitOverride", s.rate_limit as "rateLimit",
  s.api_version as "apiVersion", k.mode as mode, k.scopes as scopes`;
const KEY_WITH_SELLER = 'from api_keys k join sellers s on s.id = k.seller_id';
// Usable keys only: revocation and expiry are decided in SQL, against the server's clock passed as $2.
const USABLE_KEY = 'where k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > $2)';

/** PostgreSQL: the usable key by hash, as one named prepared statement. */
const POSTGRES_ACTIVE_KEY = { name: 'active_key_v3', text: `select ${KEY_COLUMNS} ${KEY_WITH_SELLER} ${USABLE_KEY}` };

// Test mode is a tenancy boundary: a key reads only its own mode's customers (the join and the page below).

// The customer's columns beside the key's, prefixed `c_` (all null when the seller has no such customer).
const CUSTOMER_AS_C = CUSTOMER_COLUMNS.map((column) => `c.${column} as c_${column}`).join(', ');
const CUSTOMER_OF_KEY = 'left join customers c on c.seller_id = k.seller_id and c.mode = k.mode and c.id';

/**
 * PostgreSQL: the usable key by hash and, in the same statement, its seller's customer with id $3 (columns prefixed
 * `c_`, all null when the seller has none): a GET's one round trip. Tenancy is the join on the key's seller.
 */
const POSTGRES_ACTIVE_KEY_WITH_CUSTOMER = {
  name: 'active_key_with_customer_v3',
  text: `select ${KEY_COLUMNS}, ${CUSTOMER_AS_C}
    ${KEY_WITH_SELLER} ${CUSTOMER_OF_KEY} = $3 ${USABLE_KEY}`,
};

/**
 * SQLite: the key by hash with its revocation and expiry (decided in JS, as {@link findActiveKey} does) and its
 * seller's customer by id, in one statement on the read connection.
 */
const SQLITE_KEY_WITH_CUSTOMER = `select ${KEY_COLUMNS}, k.expires_at as "expiresAt", k.revoked_at as "revokedAt",
  ${CUSTOMER_AS_C}
  ${KEY_WITH_SELLER} ${CUSTOMER_OF_KEY} = ? where k.key_hash = ?`;

type ActiveKeyRow = Omit<ActiveKey, 'lastUsedAt' | 'scopes'> & { lastUsedAt: Date | string | null; scopes: string | string[] | null };

function activeKeyOf(row: ActiveKeyRow): ActiveKey {
  return {
    keyId: row.keyId,
    sellerId: row.sellerId,
    plan: row.plan,
    customerLimitOverride: row.customerLimitOverride,
    rateLimit: row.rateLimit,
    apiVersion: row.apiVersion,
    lastUsedAt: toIsoOrNull(row.lastUsedAt),
    mode: row.mode,
    scopes: parseScopes(row.scopes),
  };
}

/** Whether {@link findActiveKeyWithCustomer} can answer on this handle (PostgreSQL, or a SQLite file). */
export function canFindKeyWithCustomer(handle: DatabaseHandle): boolean {
  return Boolean(handle.prepared ?? handle.readCommitted);
}

/**
 * {@link findActiveKey} and the key's seller's customer with this id (a canonical UUID) in one statement: one round
 * trip on PostgreSQL (`prepared`), one statement instead of two on a SQLite file (`readCommitted`; see
 * {@link canFindKeyWithCustomer}). Undefined when the key is unknown, revoked or expired at `now`.
 */
export async function findActiveKeyWithCustomer(
  handle: DatabaseHandle,
  keyHash: string,
  customerId: string,
  now = new Date(),
): Promise<{ key: ActiveKey; customer: Customer | undefined } | undefined> {
  type Row = ActiveKeyRow & Record<string, unknown>;
  let row: Row | undefined;
  if (handle.prepared) {
    [row] = (await handle.prepared(POSTGRES_ACTIVE_KEY_WITH_CUSTOMER, [keyHash, now.toISOString(), customerId])) as Row[];
  } else {
    [row] = handle.readCommitted!(SQLITE_KEY_WITH_CUSTOMER, [customerId, keyHash]) as Row[];
    if (row && !isUsable(row.revokedAt, row.expiresAt as string | null, now)) row = undefined;
  }
  if (!row) return undefined;
  if (row.c_id === null) return { key: activeKeyOf(row), customer: undefined };
  const customer = Object.fromEntries(CUSTOMER_COLUMNS.map((column) => [column, row[`c_${column}`]])) as unknown as CustomerRow;
  return { key: activeKeyOf(row), customer: customerFromRow(customer) };
}

// The key's row (the customer's columns null, the key as one JSON column last), then the page's rows (that column
// null): the key's columns are not repeated on every customer row for the driver to parse, and each page row is
// the customer once its last column is deleted (V8 undoes the last property added without leaving fast mode: no
// copy per row). `materialized`: the key is read once, for its own row and for the page's seller.
const CUSTOMER_NULLS = PAGE_COLUMNS.map((column) => `null as ${column}`).join(', ');
const KEY_AS_JSON = `json_build_object('keyId', k.id, 'sellerId', k.seller_id, 'lastUsedAt', k.last_used_at,
  'plan', s.plan, 'customerLimitOverride', s.customer_limit, 'rateLimit', s.rate_limit, 'apiVersion', s.api_version,
  'mode', k.mode, 'scopes', k.scopes)`;

/**
 * PostgreSQL: the usable key by hash and, in the same statement, its seller's page of customers (the list's own
 * select, for the key's seller): no row for an unusable key, else the key's row and one row per customer in the
 * list's order. Tenancy is the key's seller in the page's condition. The limit and status are written in the text (see
 * `postgresPageStatement`), so PostgreSQL plans the statement once per connection, not on every request.
 */
function keyWithPageStatement(page: PageRequest) {
  return postgresPageStatement('active_key_with_page_v8', page, { seller: '(select seller_id from key)', mode: '(select mode from key)' }, 3, (select) =>
    `with key as materialized (select ${KEY_AS_JSON} as key, k.seller_id, k.mode ${KEY_WITH_SELLER} ${USABLE_KEY})
    select ${CUSTOMER_NULLS}, key.key from key
    union all (select p.*, null from (${select}) p)`,
  );
}

/** Whether {@link findActiveKeyWithPage} can answer on this handle (PostgreSQL only: a SQLite file has no round trip to save). */
export function canFindKeyWithPage(handle: DatabaseHandle): boolean {
  return Boolean(handle.prepared);
}

/**
 * {@link findActiveKey} and a page of the key's seller's customers (what `listCustomerPage` reads for that seller)
 * in one statement: one round trip on PostgreSQL (see {@link canFindKeyWithPage}). Undefined when the key is
 * unknown, revoked or expired at `now`.
 */
export async function findActiveKeyWithPage(
  handle: DatabaseHandle,
  keyHash: string,
  page: PageRequest,
  now = new Date(),
): Promise<{ key: ActiveKey; rows: Customer[] } | undefined> {
  type Row = Record<string, unknown> & { key?: ActiveKeyRow | null };
  const { statement, literal } = keyWithPageStatement(page);
  const parameters = [keyHash, now.toISOString(), ...pageParameters(page, literal)];
  const found = (await handle.prepared!(statement, parameters)) as Row[];
  let key: ActiveKeyRow | undefined;
  const rows: Customer[] = [];
  // The key's row is the one with the key; the customers' rows come from one subquery, in its order.
  for (const row of found) {
    if (row.key) {
      key = row.key;
      continue;
    }
    delete row.key;
    rows.push(asCustomer(row));
  }
  if (!key) return undefined;
  // JSON's timestamp text (with an offset), as the other lookups give it: an ISO instant in UTC.
  if (key.lastUsedAt !== null) key.lastUsedAt = new Date(key.lastUsedAt).toISOString();
  return { key: activeKeyOf(key), rows };
}

/**
 * Records a use of the key, at most once per LAST_USED_PRECISION_MS: the condition lives in the UPDATE, so
 * concurrent requests and several processes write it once. Returns whether a row was written.
 */
export async function touchApiKey(handle: DatabaseHandle, keyId: string, now = new Date()): Promise<boolean> {
  const threshold = new Date(now.getTime() - LAST_USED_PRECISION_MS).toISOString();
  const result = await handle.db
    .updateTable('api_keys')
    .set({ last_used_at: now.toISOString() })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', threshold)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
