import type { CustomerChange } from '@customers-api/core';
import type { Selectable } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { customerFromRow, fromJson, toIso, type CustomerRow } from '../db/rows.js';
import type { CustomerChangesTable } from '../db/schema.js';

export type ChangeRow = Selectable<CustomerChangesTable>;

/**
 * A row snapshot as the triggers stored it, as a select would have returned it: timestamps become Dates, since
 * PostgreSQL's `to_jsonb` writes them with an offset (`…+00:00`) where a select returns a Date.
 */
function rowFromSnapshot(snapshot: unknown): CustomerRow {
  const row = fromJson<Record<string, unknown>>(snapshot);
  return { ...row, created_at: new Date(row.created_at as string), updated_at: new Date(row.updated_at as string) } as CustomerRow;
}

/**
 * An outbox row as core's {@link CustomerChange}, its customers mapped exactly as the store maps its reads.
 *
 * @example
 * const event = customerEvent(changeFromRow(row));
 */
export function changeFromRow(row: ChangeRow): CustomerChange {
  const previous = row.previous === null ? undefined : customerFromRow(rowFromSnapshot(row.previous));
  return {
    eventId: row.event_id,
    type: row.type as CustomerChange['type'],
    sellerId: row.seller_id,
    // Rows from before migration 020 have no mode: they were live.
    mode: row.mode === 'test' ? 'test' : 'live',
    customerId: row.customer_id,
    sequence: Number(row.sequence),
    occurredAt: toIso(row.occurred_at),
    customer: customerFromRow(rowFromSnapshot(row.customer)),
    ...(previous ? { previous } : {}),
  };
}

/**
 * The seller's recorded changes, oldest first.
 *
 * @example
 * const changes = await listChanges(handle, sellerId);
 */
export async function listChanges(handle: DatabaseHandle, sellerId: string, limit = 1000): Promise<CustomerChange[]> {
  const rows = await handle.db
    .selectFrom('customer_changes')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(changeFromRow);
}
