import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDrainBacklog, startBatchReceiver, type BatchReceiver } from '../test/batch-receiver.js';
import { useTestDatabase } from '../test/test-database.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createSecretBox } from './secret-box.js';

// Issue 36 on PostgreSQL: the worker's round trips per attempt (pg's Client#query: one call is one round trip,
// BEGIN and COMMIT included), counted over a drain at a receiver that answers 204, never timed.

const box = createSecretBox(randomBytes(32));

describe('a drain at a receiver that answers 204 (PostgreSQL, round trips counted)', () => {
  const db = useTestDatabase('postgres');
  let receiver: BatchReceiver;
  const query = vi.spyOn(pg.Client.prototype, 'query');
  beforeAll(async () => {
    receiver = await startBatchReceiver();
  });
  afterAll(async () => {
    query.mockRestore();
    await receiver.close();
  });
  // 16 in flight, no poll and no lease renewal within the drain, and the gather time out of the way: a round is
  // written when all 16 have ended, whatever the machine's speed (a loaded machine may run the worker's event loop
  // more than the default 5 ms apart between one round's answers). These tests count statements, never time.
  const drainWorker = () => new DeliveryWorker({ database: db.handle, secrets: box, allowPrivate: true, concurrency: 16, pollIntervalMs: 60_000, leaseMs: 600_000, recordGatherMs: 60_000 });

  it('costs at most 0.45 round trips per attempt: 128 deliveries, 16 in flight', async () => {
    receiver.expect(await seedDrainBacklog(db.handle, box, receiver.url));
    const worker = drainWorker();
    query.mockClear();
    const { attempts } = await worker.drain();
    const texts = query.mock.calls.map(([first]) => (typeof first === 'string' ? first : String((first as { text?: string })?.text ?? '')));
    await worker.stop();
    expect(attempts).toBe(128);
    const left = await db.handle.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('delivered_at', 'is', null).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const kinds = new Map<string, number>();
    for (const text of texts) {
      const key = text.replace(/\s+/g, ' ').trim().slice(0, 90);
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    const summary = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}`).join('\n');
    // Eight rounds of 16, each a record joined to the next claim. A round was 12 round trips (106 in all, 0.83 per
    // attempt): begin, heads, seller locks, busy slots, due rows, leases, claimed rows, endpoints' health, delivered
    // rows, attempts, commit, heads settled. Heads and locks in one statement, the leases returning the claimed
    // rows, the delivered rows and their attempts in one, the busy slots and the due rows in one: 8 a round (71 in
    // all, 0.55 per attempt); the endpoints' health in the delivered rows' statement: 7 (63, 0.49); the heads settled
    // in the lease's statement, not after the commit: 6 (55, 0.43). The bound fails the 63 of before.
    expect(texts.length, `${texts.length} round trips for ${attempts} attempts:\n${summary}`).toBeLessThanOrEqual(128 * 0.45);
  });

  it('records a round when every attempt in flight has ended, not at half the slots: at most 0.45 round trips per attempt at a receiver answering each at once', async () => {
    // Each attempt is answered as it arrives, so they end over several turns of the worker's event loop. With the
    // gather time out of the way (a minute), a batch is written only when all in flight have ended: rounds of 16,
    // whatever the machine's speed. Writing at half the slots took 120-136 round trips here (0.94-1.06 per attempt).
    const prompt = await startBatchReceiver(1);
    try {
      prompt.expect(await seedDrainBacklog(db.handle, box, prompt.url));
      const worker = drainWorker();
      query.mockClear();
      const { attempts } = await worker.drain();
      const roundTrips = query.mock.calls.length;
      await worker.stop();
      expect(attempts).toBe(128);
      expect(roundTrips, `${roundTrips} round trips for ${attempts} attempts`).toBeLessThanOrEqual(128 * 0.45);
    } finally {
      await prompt.close();
    }
  });
});
