import { CompiledQuery } from 'kysely';
import { sqliteWriter, type DatabaseHandle } from '../../db/connect.js';
import { writeTransaction } from '../../db/write-transaction.js';

/** One request as recorded, before its key's name and prefix are looked up. */
export interface RequestLogEntry {
  sellerId: string;
  occurredAt: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  keyId: string | null;
  /** The server's own id for the request. */
  requestId: string;
  /** The caller's acceptable `X-Request-Id`, when it sent one. */
  clientRequestId?: string | null;
  apiVersion: string | null;
  mode: 'live' | 'test';
  requestBody: string | null;
  errorBody: string | null;
}

/** How long rows are kept, and how many of one seller at most (openapi.dashboard.yaml, listRequestLogs). */
export const REQUEST_LOG_RETENTION_DAYS = 30;
export const REQUEST_LOGS_PER_SELLER = 100_000;
/** The most rows one prune run deletes, in total. */
export const REQUEST_LOG_PRUNE_BATCH = 5_000;

const COLUMNS = 'seller_id, occurred_at, method, path, status, duration_ms, key_id, key_name, key_prefix, request_id, api_version, mode, request_body, error_body, client_request_id';
/** SQLite: one prepared row insert, run synchronously for each row inside one write transaction. */
export const SQLITE_REQUEST_LOG_INSERT = `insert into request_logs (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** PostgreSQL: the whole batch in one statement, a column per array parameter. */
const POSTGRES_INSERT = `insert into request_logs (${COLUMNS})
  select * from unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::integer[], $6::real[], $7::uuid[],
    $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])`;

/** Each key's name and prefix as they are now, by key id (null: no such key any more). */
export type KeyNames = Map<string, { name: string; prefix: string } | null>;

/** A row's values in {@link SQLITE_REQUEST_LOG_INSERT}'s column order. */
export function requestLogValues(entry: RequestLogEntry, keys: KeyNames): unknown[] {
  const key = entry.keyId === null ? null : keys.get(entry.keyId) ?? null;
  return [
    entry.sellerId, entry.occurredAt, entry.method, entry.path, entry.status, entry.durationMs, entry.keyId,
    key?.name ?? null, key?.prefix ?? null, entry.requestId, entry.apiVersion, entry.mode, entry.requestBody, entry.errorBody,
    entry.clientRequestId ?? null,
  ];
}

/** Adds to `keys` the name and prefix of each key of `entries` not known yet, read in one query from `handle`. */
export async function resolveKeyNames(handle: DatabaseHandle, entries: readonly RequestLogEntry[], keys: KeyNames): Promise<void> {
  const unknown = [...new Set(entries.map((entry) => entry.keyId).filter((id): id is string => id !== null && !keys.has(id)))];
  if (unknown.length === 0) return;
  const rows = await handle.db.selectFrom('api_keys').select(['id', 'name', 'prefix']).where('id', 'in', unknown).execute();
  for (const id of unknown) keys.set(id, null);
  for (const row of rows) keys.set(String(row.id), { name: row.name, prefix: row.prefix });
}

/**
 * Writes a batch of entries in one transaction of `handle`'s database, with each key's name and prefix as they
 * are now (`keys`: the ones already known; the others are read and added). Plain SQL rather than the query
 * builder: a batch of 2,000 rows built as one Kysely INSERT cost about 40 µs of CPU per row to compile
 * (measured), more than the request it records. PostgreSQL and in-memory SQLite; a SQLite file's rows go to
 * the request log's own file, written on a thread of its own (request-log-file.ts).
 */
export async function insertRequestLogs(handle: DatabaseHandle, entries: readonly RequestLogEntry[], keys: KeyNames): Promise<void> {
  await resolveKeyNames(handle, entries, keys);
  if (handle.dialect === 'postgres') {
    const columns: unknown[][] = Array.from({ length: 15 }, () => []);
    for (const entry of entries) requestLogValues(entry, keys).forEach((value, index) => columns[index]!.push(value));
    await handle.db.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, columns));
    return;
  }
  const writeRun = sqliteWriter(handle);
  await writeTransaction(handle, async () => {
    for (const entry of entries) writeRun(SQLITE_REQUEST_LOG_INSERT, requestLogValues(entry, keys));
  });
}

/**
 * Deletes rows past their retention, and of each seller in `sellers` the rows beyond its newest
 * {@link REQUEST_LOGS_PER_SELLER}: at most `batch` rows in all, each step read through an index. Returns how many
 * rows went.
 */
export async function pruneRequestLogs(
  handle: DatabaseHandle,
  { now, sellers, retentionDays = REQUEST_LOG_RETENTION_DAYS, perSeller = REQUEST_LOGS_PER_SELLER, batch = REQUEST_LOG_PRUNE_BATCH }:
    { now: Date; sellers: Iterable<string>; retentionDays?: number; perSeller?: number; batch?: number },
): Promise<number> {
  const cutoff = now.getTime() - retentionDays * 86_400_000;
  let left = batch;
  // Rows are written in time order, so the oldest are first by id: read them through the primary key (no time
  // index to keep up on every insert) and stop at the first one still kept. A row written a moment out of order
  // waits for a later prune.
  const oldest = await handle.db.selectFrom('request_logs').select(['id', 'occurred_at']).orderBy('id').limit(left).execute();
  const expired: number[] = [];
  for (const row of oldest) {
    if (new Date(row.occurred_at).getTime() >= cutoff) break;
    expired.push(Number(row.id));
  }
  if (expired.length > 0) {
    const result = await handle.db.deleteFrom('request_logs').where('id', 'in', expired).executeTakeFirst();
    left -= Number(result.numDeletedRows);
  }
  for (const sellerId of sellers) {
    if (left <= 0) break;
    // The newest row past the seller's share; it and everything older go (a batch at a time).
    const edge = await handle.db
      .selectFrom('request_logs')
      .select('id')
      .where('seller_id', '=', sellerId)
      .orderBy('id', 'desc')
      .offset(perSeller)
      .limit(1)
      .executeTakeFirst();
    if (!edge) continue;
    const over = await handle.db
      .selectFrom('request_logs')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('id', '<=', Number(edge.id))
      .orderBy('id', 'desc')
      .limit(left)
      .execute();
    if (over.length === 0) continue;
    const result = await handle.db.deleteFrom('request_logs').where('id', 'in', over.map((row) => Number(row.id))).executeTakeFirst();
    left -= Number(result.numDeletedRows);
  }
  return batch - left;
}
