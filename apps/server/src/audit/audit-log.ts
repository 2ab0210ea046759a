import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { toIso } from '../db/rows.js';
import type { Database } from '../db/schema.js';
import { writeTransaction } from '../db/write-transaction.js';
import type { AuditAction, AuditActorType, AuditContext, AuditEntry } from './audit-actions.js';
import { readDetails, storedDetails, type AuditDetails } from './audit-details.js';

/** Audit rows are kept this long unless the operator says otherwise (`--audit-retention-days`). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** One audit row as the CLI and the dashboard read it. */
export interface AuditRecord {
  id: number;
  occurred_at: string;
  seller_id: string;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_label: string | null;
  action: AuditAction;
  target_id: string | null;
  request_id: string | null;
  client_request_id: string | null;
  client_address: string | null;
  /** A roll's keys, an update's changed fields before and after; null when the action says it all. */
  details: AuditDetails | null;
}

/** Writes one audit row with `db`, which is the transaction of the change it records. */
export async function writeAuditRow(db: Kysely<Database>, context: AuditContext, entry: AuditEntry, now: Date): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      occurred_at: now.toISOString(),
      seller_id: entry.sellerId,
      mode: entry.mode ?? 'live',
      actor_type: (entry.actor ?? context.actor).type,
      actor_id: (entry.actor ?? context.actor).id,
      actor_label: (entry.actor ?? context.actor).label ?? null,
      action: entry.action,
      target_id: entry.targetId,
      request_id: context.requestId ?? null,
      client_request_id: context.clientRequestId ?? null,
      client_address: context.clientAddress ?? null,
      details: storedDetails(entry.details),
    })
    .execute();
}

/**
 * Runs a change and records it in one transaction: `work` gets a handle whose `db` is the transaction (the store
 * functions take it like any handle), and `entryFor` says from the result what to record (nothing, undefined,
 * when the change did not happen: an unknown id, invalid input). A throw rolls both back.
 *
 * @example
 * const done = await audited(handle, CLI_ACTOR, (trx) => deleteEndpoint(trx, sellerId, id),
 *   (deleted) => deleted ? { sellerId, action: 'webhook_endpoint.deleted', targetId: id } : undefined);
 */
export function audited<T>(
  handle: DatabaseHandle,
  context: AuditContext,
  work: (trx: DatabaseHandle) => Promise<T>,
  entryFor: (result: T) => AuditEntry | undefined,
  now = new Date(),
): Promise<T> {
  return writeTransaction(handle, async (db) => {
    // Only the query builder: the fast paths (prepared statements, the SQLite reader) run outside transactions.
    const trx: DatabaseHandle = { db, dialect: handle.dialect, display: handle.display, close: async () => {}, inTransaction: true };
    const result = await work(trx);
    const entry = entryFor(result);
    if (entry) await writeAuditRow(db, context, entry, now);
    return result;
  });
}

export interface AuditQuery {
  sellerId?: string;
  /** Rows at or after this instant (ISO 8601). */
  since?: string;
  /** Rows older than the row with this id (the page before it). */
  beforeId?: number;
  /** Only rows of this action. */
  action?: AuditAction;
  /** Only rows about this object (a key, an endpoint, a delivery, a seller). */
  targetId?: string;
  /** Only rows of this request: the server's id for it or the one its client sent (either matches). */
  requestId?: string;
  /** Only rows of this mode (the dashboard's test/live switch; through the (seller_id, mode, id) index). */
  mode?: 'live' | 'test';
  limit: number;
}

/** Audit rows, newest first. */
export async function listAuditRows(handle: DatabaseHandle, { sellerId, since, beforeId, action, targetId, requestId, mode, limit }: AuditQuery): Promise<AuditRecord[]> {
  const rows = await handle.db
    .selectFrom('audit_log')
    .selectAll()
    .$if(sellerId !== undefined, (qb) => qb.where('seller_id', '=', sellerId!))
    .$if(since !== undefined, (qb) => qb.where('occurred_at', '>=', since!))
    .$if(beforeId !== undefined, (qb) => qb.where('id', '<', beforeId!))
    .$if(action !== undefined, (qb) => qb.where('action', '=', action!))
    .$if(targetId !== undefined, (qb) => qb.where('target_id', '=', targetId!))
    .$if(requestId !== undefined, (qb) => qb.where((eb) => eb.or([eb('request_id', '=', requestId!), eb('client_request_id', '=', requestId!)])))
    .$if(mode !== undefined, (qb) => qb.where('mode', '=', mode!))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    occurred_at: toIso(row.occurred_at),
    actor_type: row.actor_type as AuditActorType,
    action: row.action as AuditAction,
    details: readDetails(row.details),
  }));
}

/**
 * Deletes audit rows older than the retention, a batch at a time (like the outbox's prune), so a large backlog
 * never holds the write lock for long. Returns how many went.
 */
export async function pruneAuditLog(
  handle: DatabaseHandle,
  { now, retentionDays = DEFAULT_AUDIT_RETENTION_DAYS, batchSize = 500 }: { now: Date; retentionDays?: number; batchSize?: number },
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let pruned = 0;
  for (;;) {
    const batch = await handle.db
      .selectFrom('audit_log')
      .select('id')
      .where('occurred_at', '<', cutoff)
      .orderBy('id')
      .limit(batchSize)
      .execute();
    if (batch.length === 0) return pruned;
    const result = await handle.db
      .deleteFrom('audit_log')
      .where('id', 'in', batch.map((row) => Number(row.id)))
      .executeTakeFirst();
    pruned += Number(result.numDeletedRows);
    if (batch.length < batchSize) return pruned;
  }
}
