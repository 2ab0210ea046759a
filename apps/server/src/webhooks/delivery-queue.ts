import { nextRetryDelay } from '@customers-api/core';
import { sql, type Selectable } from 'kysely';
import { compileOnce } from '../db/compile-once.js';
import type { DatabaseHandle } from '../db/connect.js';
import { toIsoOrNull } from '../db/rows.js';
import type { CustomerChangesTable } from '../db/schema.js';
import { writeTransaction } from '../db/write-transaction.js';

// The deliveries table as a work queue shared by every server process. A worker claims due rows with a lease
// (its id and a time); others skip them until the lease runs out, which the worker keeps moving on while the
// attempt runs. A worker killed with -9 therefore only delays its rows until their lease ends.

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  endpointId: string;
  url: string;
  /** Sealed; opened by the worker just before signing. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  change: Selectable<CustomerChangesTable>;
}

export interface ClaimOptions {
  now: Date;
  leaseMs: number;
  /** The claiming worker. */
  owner: string;
  limit: number;
  /** Only endpoints whose secrets this process's key opens. */
  keyId: string;
}

const selectAnyDue = compileOnce((db, now: string) =>
  db.selectFrom('webhook_deliveries').select('id').where('next_attempt_at', 'is not', null).where('next_attempt_at', '<=', now).limit(1),
);

/**
 * Claims up to `limit` due deliveries. A delivery waits while an earlier change of the same customer to the same
 * endpoint has not had its first attempt (per-customer order; no order once retries begin). On PostgreSQL the
 * candidates are locked `FOR UPDATE SKIP LOCKED`, so workers of several processes claim disjoint rows without
 * waiting for each other; SQLite has one writer at a time anyway.
 *
 * @example
 * const claimed = await claimDeliveries(handle, { now: new Date(), leaseMs: 5000, owner, limit: 8, keyId });
 */
export async function claimDeliveries(handle: DatabaseHandle, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const now = options.now.toISOString();
  // Asked after every burst of writes and every poll, and nearly always "no": answered by the due index alone,
  // from a statement compiled once, before the full query is even built.
  if ((await selectAnyDue(handle, now)).rows.length === 0) return [];
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const { db } = handle;
  let due = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.id')
    .where('d.next_attempt_at', 'is not', null)
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
    .where('e.secret_key_id', '=', options.keyId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as p')
            .select(sql.lit(1).as('one'))
            .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
            .whereRef('p.customer_id', '=', 'd.customer_id')
            .whereRef('p.sequence', '<', 'd.sequence')
            .where('p.attempts', '=', 0)
            .where('p.next_attempt_at', 'is not', null),
        ),
      ),
    )
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(options.limit);
  // Due rows exist, but all may be leased or waiting for an earlier change: a read first takes no write lock
  // (SQLite) and locks no row.
  if (!(await due.executeTakeFirst())) return [];
  if (handle.dialect === 'postgres') due = due.forUpdate(['d']).skipLocked();
  const claimed = await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, lease_owner: options.owner })
    .where('id', 'in', due)
    .returning('id')
    .execute();
  if (claimed.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
    .selectAll('c')
    .select([
      'd.id as delivery_id',
      'd.attempts',
      'e.id as endpoint_id',
      'e.url',
      'e.secret',
      'e.previous_secret',
      'e.previous_secret_expires_at',
    ])
    .where(
      'd.id',
      'in',
      claimed.map((row) => row.id),
    )
    .where('d.lease_owner', '=', options.owner)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .execute();
  return rows.map(({ delivery_id, attempts, endpoint_id, url, secret, previous_secret, previous_secret_expires_at, ...change }) => ({
    id: Number(delivery_id),
    attempts: Number(attempts),
    endpointId: endpoint_id,
    url,
    secret,
    previousSecret: previous_secret,
    previousSecretExpiresAt: toIsoOrNull(previous_secret_expires_at),
    change: change as Selectable<CustomerChangesTable>,
  }));
}

/** Moves the lease of the worker's deliveries in flight on, so nobody else takes them while they run. */
export async function renewLeases(
  handle: DatabaseHandle,
  { ids, owner, leaseUntil }: { ids: number[]; owner: string; leaseUntil: Date },
): Promise<void> {
  if (ids.length === 0) return;
  await handle.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil.toISOString() })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** How one attempt ended: a status from the receiver, or an error before one came (refused, timed out). */
/** An attempt's answer, or its error: `error` is recorded and shown to the seller, `detail` only logged. */
export type AttemptOutcome = { status: number; acknowledged: boolean } | { error: string; detail?: string };

/**
 * Records an attempt by the lease's owner (a worker whose lease was taken over records nothing): delivered, or
 * due again after core's next retry delay, or given up after the last one, which marks the endpoint failing
 * until a later delivery to it succeeds.
 */
export async function recordAttempt(
  handle: DatabaseHandle,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  { now, owner, random = Math.random }: { now: Date; owner: string; random?: () => number },
): Promise<'delivered' | 'retrying' | 'failed' | 'lost'> {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const acknowledged = 'acknowledged' in outcome && outcome.acknowledged;
  const delay = acknowledged ? undefined : nextRetryDelay(attempts, random);
  const result = acknowledged ? 'delivered' : delay === undefined ? 'failed' : 'retrying';
  return writeTransaction(handle, async (trx) => {
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts,
        last_attempt_at: at,
        last_status: 'status' in outcome ? outcome.status : null,
        last_error: 'error' in outcome ? outcome.error.slice(0, 500) : null,
        lease_until: null,
        lease_owner: null,
        next_attempt_at: delay === undefined ? null : new Date(now.getTime() + delay).toISOString(),
        ...(acknowledged ? { delivered_at: at, given_up_at: null } : delay === undefined ? { given_up_at: at } : {}),
      })
      .where('id', '=', delivery.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return 'lost';
    if (result === 'delivered') {
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', '=', delivery.endpointId)
        .where('failing_since', 'is not', null)
        .execute();
    } else if (result === 'failed') {
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: at })
        .where('id', '=', delivery.endpointId)
        .where('failing_since', 'is', null)
        .execute();
    }
    return result;
  });
}
