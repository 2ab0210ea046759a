import { WEBHOOK_REPLAY_LIMIT } from '@customers-api/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// Bounds on what one request or one attempt may make the server do to the delivery queue (issue 36): nothing a
// seller can ask for touches more than a page of deliveries at once; the rest waits for a later request or claim.

/**
 * "Resend all failed since" queues at most this many deliveries per request (oldest first); the answer says if more
 * remain. One cap with the public API's replay (issue 37: one documented maximum for both), so it is core's.
 */
export const RESEND_FAILED_LIMIT = WEBHOOK_REPLAY_LIMIT;

/**
 * A seller's waiting deliveries of one mode (due or waiting out a retry; test and live each count their own since
 * migration 029) beyond which a new event's deliveries of that mode are written
 * `skipped` instead of queued: the event is kept (listed, readable, replayable), each skipped delivery says why and
 * can be resent. The operator may set another cap per seller (`sellers update --waiting-delivery-limit`, stored in
 * `sellers.waiting_delivery_limit`). The outbox triggers read this default from `server_settings`, which every
 * migrate (each start) writes from here (db/server-settings.ts, migration 034): changing it needs no migration.
 */
export const WAITING_DELIVERY_LIMIT = 100_000;

/** The `last_error` of a delivery skipped at the cap (SQL-safe: no quote). */
export const SKIPPED_FOR_CAP = 'Skipped: the seller already had as many deliveries waiting as its cap allows; resend it once they have gone out';

/** Deliveries given up per step when an endpoint is disabled; later claims give up the rest, a batch at a time. */
export const GIVE_UP_BATCH = 1_000;

/**
 * Gives up the next `GIVE_UP_BATCH` deliveries that were waiting when the endpoint was disabled (at `disabledAt`),
 * as given up `at`; true when more may wait. A delivery resent since (attempts from zero, due after `disabledAt`)
 * is not one of them: it waits for the endpoint to be enabled. Reads through the (endpoint_id, next_attempt_at, id) index.
 *
 * @example
 * const more = await giveUpWaiting(trx, endpointId, { disabledAt, at: now.toISOString() });
 */
export async function giveUpWaiting(trx: Kysely<Database>, endpointId: string, { disabledAt, at }: { disabledAt: string; at: string }): Promise<boolean> {
  const result = await sql`update webhook_deliveries set next_attempt_at = null, given_up_at = ${at}
    where id in (select w.id from webhook_deliveries w where w.endpoint_id = ${endpointId} and w.next_attempt_at is not null
      and (w.next_attempt_at <= ${disabledAt} or w.attempts > 0)
      order by w.next_attempt_at, w.id limit ${sql.lit(GIVE_UP_BATCH)})`.execute(trx);
  return Number(result.numAffectedRows ?? 0n) >= GIVE_UP_BATCH;
}
