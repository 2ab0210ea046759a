import { WEBHOOK_EVENT_RETENTION_MS } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { toIso } from '../db/rows.js';

export interface PruneOptions {
  now: Date;
  /** Finished events older than this are deleted; core's retention by default. */
  retentionMs?: number;
  /** Rows per statement, so a large backlog never holds the write lock for long. */
  batchSize?: number;
}

/**
 * Deletes the outbox's finished events older than the retention (core's WEBHOOK_EVENT_RETENTION_MS, 30 days) with
 * their delivery history (the deliveries go with their change: `on delete cascade`). An event some delivery still
 * waits on (a retry, a resend) is kept whatever its age. Returns how many events went.
 *
 * Events are visited oldest first by id, a batch at a time, and the walk ends with the batch that holds the first
 * event inside the retention: ids grow with time, so a run costs about what it deletes, not the size of the
 * outbox (an old event behind a newer id, from a process whose clock was behind, waits for a later run). Safe to
 * run from several processes at once.
 *
 * @example
 * await pruneFinishedChanges(handle, { now: new Date() });
 */
export async function pruneFinishedChanges(
  handle: DatabaseHandle,
  { now, retentionMs = WEBHOOK_EVENT_RETENTION_MS, batchSize = 500 }: PruneOptions,
): Promise<number> {
  const cutoff = now.getTime() - retentionMs;
  let pruned = 0;
  let after = 0;
  for (;;) {
    const oldest = await handle.db
      .selectFrom('customer_changes as c')
      .select(['c.id', 'c.occurred_at'])
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('webhook_deliveries as d')
              .select('d.id')
              .whereRef('d.change_id', '=', 'c.id')
              .where('d.next_attempt_at', 'is not', null),
          )
          .as('waiting'),
      )
      .where('c.id', '>', after)
      .orderBy('c.id')
      .limit(batchSize)
      .execute();
    const expired = oldest.filter((row) => Date.parse(toIso(row.occurred_at)) < cutoff);
    const finished = expired.filter((row) => !row.waiting).map((row) => Number(row.id));
    if (finished.length > 0) {
      const result = await handle.db.deleteFrom('customer_changes').where('id', 'in', finished).executeTakeFirst();
      pruned += Number(result.numDeletedRows);
    }
    // Done with the batch holding the first event inside the retention, or at the end of the outbox.
    if (expired.length < oldest.length || oldest.length < batchSize) return pruned;
    after = Number(oldest[oldest.length - 1]!.id);
  }
}
