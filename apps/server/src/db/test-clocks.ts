import type { TestClockDoor } from '@customers-api/core';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseHandle, DialectName } from './connect.js';
import type { Database } from './schema.js';
import { writeTransaction } from './write-transaction.js';

// The server's test clocks (migration 027): per seller, an offset in milliseconds that test mode's time is ahead of
// the wall clock. It runs with the wall clock and only grows (core's rule refuses going back; the write keeps the
// larger offset when two moves race), so it is never behind a test object's timestamps. Moving it also moves what
// waits on it in wall-clock terms: the waiting deliveries of the seller's test endpoints fall due that much earlier
// (their queue heads woken by the delivery triggers, db/delivery-heads.ts), and the start of an endpoint's run of
// failures moves back with them, so the disable rule sees the time that passed. Live rows are never touched.

/** What a test-mode request reads once, in one statement: the seller's offset, its key's expiry, its test pin. */
export interface TestModeClock {
  offsetMs: number;
  keyExpiresAt: string | null;
  /** The seller's test-mode API version pin (`sellers.test_api_version`); null: the live pin. */
  testApiVersion: string | null;
}

/**
 * The test clock of the key's seller and the key's expiry, in one indexed read by the key's id.
 *
 * @example
 * const { offsetMs } = await readTestModeClock(handle, keyId);
 */
export async function readTestModeClock(handle: DatabaseHandle, keyId: string): Promise<TestModeClock> {
  const row = await handle.db
    .selectFrom('api_keys as k')
    .innerJoin('sellers as s', 's.id', 'k.seller_id')
    .leftJoin('test_clocks as c', 'c.seller_id', 'k.seller_id')
    .select(['c.offset_ms', 'k.expires_at', 's.test_api_version'])
    .where('k.id', '=', keyId)
    .executeTakeFirst();
  return {
    offsetMs: Number(row?.offset_ms ?? 0),
    keyExpiresAt: row?.expires_at ? new Date(row.expires_at).toISOString() : null,
    testApiVersion: row?.test_api_version ?? null,
  };
}

/** A seller's offset (0 without a row). */
export async function readTestClockOffset(db: Kysely<Database>, sellerId: string): Promise<number> {
  const row = await db.selectFrom('test_clocks').select('offset_ms').where('seller_id', '=', sellerId).executeTakeFirst();
  return Number(row?.offset_ms ?? 0);
}

/**
 * Core's TestClockDoor over SQL. `now` is the wall clock (buildApp's).
 *
 * @example
 * const door = sqlTestClock(handle, () => new Date());
 */
export function sqlTestClock(handle: DatabaseHandle, now: () => Date): TestClockDoor {
  return {
    async read(sellerId) {
      return { now: now().getTime() + (await readTestClockOffset(handle.db, sellerId)), frozen: false };
    },
    // Core checked that the target is not before the clock's now.
    set: (sellerId, target) => moveTestClock(handle, sellerId, (offset) => target - now().getTime() - offset, now),
    advance: (sellerId, ms) => moveTestClock(handle, sellerId, () => ms, now),
  };
}

/**
 * Moves a seller's test clock on by `step(currentOffset)` milliseconds (never back), in one transaction with the
 * due times of its test endpoints' waiting deliveries and the failure runs of those endpoints.
 */
export async function moveTestClock(
  handle: DatabaseHandle,
  sellerId: string,
  step: (offset: number) => number,
  now: () => Date = () => new Date(),
): Promise<void> {
  await writeTransaction(handle, async (trx) => {
    const at = now().toISOString();
    // The row first (no-op when it exists), then read it locked: two moves of one seller queue here.
    await trx.insertInto('test_clocks').values({ seller_id: sellerId, offset_ms: 0, updated_at: at }).onConflict((oc) => oc.column('seller_id').doNothing()).execute();
    let read = trx.selectFrom('test_clocks').select('offset_ms').where('seller_id', '=', sellerId);
    if (handle.dialect === 'postgres') read = read.forUpdate();
    const offset = Number((await read.executeTakeFirstOrThrow()).offset_ms);
    const delta = Math.max(0, Math.round(step(offset)));
    await trx.updateTable('test_clocks').set({ offset_ms: offset + delta, updated_at: at }).where('seller_id', '=', sellerId).execute();
    if (delta === 0) return;
    const testEndpoints = trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('mode', '=', 'test');
    await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: earlier(handle.dialect, 'next_attempt_at', delta) as unknown as string })
      .where('endpoint_id', 'in', testEndpoints)
      .where('next_attempt_at', 'is not', null)
      .execute();
    await trx
      .updateTable('webhook_endpoints')
      .set({ attempts_failing_since: earlier(handle.dialect, 'attempts_failing_since', delta) as unknown as string })
      .where('seller_id', '=', sellerId)
      .where('mode', '=', 'test')
      .where('attempts_failing_since', 'is not', null)
      .execute();
  });
}

/** A timestamp column moved `ms` earlier, in each dialect's own form (SQLite: the ISO text the server writes). */
function earlier(dialect: DialectName, column: string, ms: number): RawBuilder<unknown> {
  if (dialect === 'postgres') return sql`${sql.ref(column)} - (${ms}::bigint * interval '1 millisecond')`;
  return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.ref(column)}, ${`-${ms / 1000} seconds`})`;
}
