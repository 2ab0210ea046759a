import type { DatabaseHandle } from '../../db/connect.js';

/** One request as recorded, before its key's name and prefix are looked up. */
export interface RequestLogEntry {
  sellerId: string;
  occurredAt: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  keyId: string | null;
  requestId: string;
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

/** Rows per INSERT statement: 14 parameters each stays far below SQLite's 32,766. */
const ROWS_PER_INSERT = 500;

/**
 * Writes a batch of entries in one transaction, with each key's name and prefix as they are now (`keys`: the
 * ones already known; the others are read in one query and added).
 */
export async function insertRequestLogs(
  handle: DatabaseHandle,
  entries: readonly RequestLogEntry[],
  keys: Map<string, { name: string; prefix: string } | null>,
): Promise<void> {
  const unknown = [...new Set(entries.map((entry) => entry.keyId).filter((id): id is string => id !== null && !keys.has(id)))];
  if (unknown.length > 0) {
    const rows = await handle.db.selectFrom('api_keys').select(['id', 'name', 'prefix']).where('id', 'in', unknown).execute();
    for (const id of unknown) keys.set(id, null);
    for (const row of rows) keys.set(String(row.id), { name: row.name, prefix: row.prefix });
  }
  await handle.db.transaction().execute(async (trx) => {
    for (let start = 0; start < entries.length; start += ROWS_PER_INSERT) {
      await trx
        .insertInto('request_logs')
        .values(
          entries.slice(start, start + ROWS_PER_INSERT).map((entry) => {
            const key = entry.keyId === null ? null : keys.get(entry.keyId) ?? null;
            return {
              seller_id: entry.sellerId,
              occurred_at: entry.occurredAt,
              method: entry.method,
              path: entry.path,
              status: entry.status,
              duration_ms: entry.durationMs,
              key_id: entry.keyId,
              key_name: key?.name ?? null,
              key_prefix: key?.prefix ?? null,
              request_id: entry.requestId,
              api_version: entry.apiVersion,
              mode: entry.mode,
              request_body: entry.requestBody,
              error_body: entry.errorBody,
            };
          }),
        )
        .execute();
    }
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
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let left = batch;
  const old = await handle.db.selectFrom('request_logs').select('id').where('occurred_at', '<', cutoff).orderBy('occurred_at').orderBy('id').limit(left).execute();
  if (old.length > 0) {
    const result = await handle.db.deleteFrom('request_logs').where('id', 'in', old.map((row) => Number(row.id))).executeTakeFirst();
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
