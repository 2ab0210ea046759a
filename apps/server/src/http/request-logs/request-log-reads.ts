import { sql, type Selectable } from 'kysely';
import type { DatabaseHandle } from '../../db/connect.js';
import type { RequestLogsTable } from '../../db/schema.js';

/** The filters of the Request logs page (openapi.dashboard.yaml, listRequestLogs), already checked. */
export interface RequestLogFilters {
  /** The server's id for the request or the one its client sent: either finds the row. */
  requestId?: string;
  /** 2, 3, 4 or 5 (the status class). */
  statusClass?: number;
  method?: string;
  /** An exact path, or a prefix when `pathIsPrefix`. */
  path?: string;
  pathIsPrefix?: boolean;
  keyId?: string;
  mode?: 'live' | 'test';
  since?: string;
  until?: string;
  beforeId?: number;
  limit: number;
}

type Row = Selectable<RequestLogsTable>;

/** A row as listed (openapi.dashboard.yaml `RequestLog`). */
export function listedRequestLog(row: Row) {
  return {
    id: String(row.id),
    occurred_at: new Date(row.occurred_at).toISOString(),
    method: row.method,
    path: row.path,
    status: row.status,
    duration_ms: Number(row.duration_ms),
    key_id: row.key_id,
    key_name: row.key_name,
    key_prefix: row.key_prefix,
    request_id: row.request_id,
    client_request_id: row.client_request_id ?? null,
    api_version: row.api_version,
    mode: row.mode === 'test' ? ('test' as const) : ('live' as const),
  };
}

/** A row with its bodies (openapi.dashboard.yaml `RequestLogDetail`). */
export function detailedRequestLog(row: Row) {
  return {
    ...listedRequestLog(row),
    request_body: row.request_body === null ? null : (JSON.parse(row.request_body) as unknown),
    error_body: row.error_body === null ? null : (JSON.parse(row.error_body) as { error: string; message: string }),
  };
}

/**
 * One page of the seller's request logs, newest first (read through (seller_id, id), or (seller_id, request_id) and
 * (seller_id, client_request_id) for one request id), `limit + 1` rows so the caller knows whether an older page exists.
 */
export async function listRequestLogs(handle: DatabaseHandle, sellerId: string, filters: RequestLogFilters): Promise<Row[]> {
  let query = handle.db.selectFrom('request_logs').selectAll().where('seller_id', '=', sellerId);
  if (filters.requestId !== undefined) {
    const id = filters.requestId;
    query = query.where((eb) => eb.or([eb('request_id', '=', id), eb('client_request_id', '=', id)]));
  }
  if (filters.statusClass !== undefined) {
    query = query.where('status', '>=', filters.statusClass * 100).where('status', '<', filters.statusClass * 100 + 100);
  }
  if (filters.method !== undefined) query = query.where('method', '=', filters.method);
  if (filters.path !== undefined) {
    query = filters.pathIsPrefix
      ? // substr, not LIKE: literal and case-sensitive on both databases (no wildcards to escape).
        query.where(sql<string>`substr(path, 1, ${filters.path.length})`, '=', filters.path)
      : query.where('path', '=', filters.path);
  }
  if (filters.keyId !== undefined) query = query.where('key_id', '=', filters.keyId);
  if (filters.mode !== undefined) query = query.where('mode', '=', filters.mode);
  if (filters.since !== undefined) query = query.where('occurred_at', '>=', filters.since);
  if (filters.until !== undefined) query = query.where('occurred_at', '<', filters.until);
  if (filters.beforeId !== undefined) query = query.where('id', '<', filters.beforeId);
  return query.orderBy('id', 'desc').limit(filters.limit + 1).execute();
}

/** One of the seller's rows by id; undefined for another seller's or none. */
export async function findRequestLog(handle: DatabaseHandle, sellerId: string, id: number): Promise<Row | undefined> {
  return handle.db.selectFrom('request_logs').selectAll().where('seller_id', '=', sellerId).where('id', '=', id).executeTakeFirst();
}
