import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testEventChange } from '../dashboard/test-event.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { useTestDatabase } from '../test/test-database.js';
import { claimDeliveries } from './delivery-queue.js';
import { createEndpoint, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 36 on PostgreSQL: a claim settles the heads it visited inside its own transaction, last, and never waits
// for a head another transaction holds (it was a round trip of its own after the commit, waiting for the lock).

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-28T12:00:00.000Z');

describe('a claim settling its heads (PostgreSQL)', () => {
  const db = useTestDatabase('postgres');

  async function endpointWithDue(count: number): Promise<string> {
    const sellerId = await newTestSeller(db.handle);
    const created = await createEndpoint(db.handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}` });
    if (created.kind !== 'created') throw new Error(created.message);
    for (let i = 0; i < count; i++) await queueChange(db.handle, created.endpoint.id, testEventChange(sellerId, new Date(T0)), new Date(T0));
    return created.endpoint.id;
  }
  const claim = (now: number) => claimDeliveries(db.handle, { now: new Date(now), leaseMs: 60_000, owner: 'process-1', limit: 16, keyId: box.keyId });
  const head = async (endpointId: string) =>
    db.handle.db.selectFrom('webhook_delivery_heads').select(['due_at', 'wakes']).where('endpoint_id', '=', endpointId).executeTakeFirstOrThrow();
  const dueAt = async (endpointId: string) => new Date((await head(endpointId)).due_at as string).toISOString();

  it('moves a served head to the back of the queue in the claim itself, and the next visit to the end of its lease', async () => {
    const endpointId = await endpointWithDue(2);
    const before = await head(endpointId);
    const claimed = await claim(T0);
    expect(claimed.map((d) => d.endpointId)).toEqual([endpointId, endpointId]);
    // Served: due at the claim's time (round robin), written once, by the claim (its `wakes` moved on by one).
    expect([await dueAt(endpointId), Number((await head(endpointId)).wakes)]).toEqual([new Date(T0).toISOString(), Number(before.wakes) + 1]);
    // Both leased and nothing else waits: the next visit makes it due when the first lease ends.
    expect(await claim(T0 + 1_000)).toEqual([]);
    expect(await dueAt(endpointId)).toBe(new Date(T0 + 60_000).toISOString());
  });

  it('leases while another transaction holds the head, leaves that head as it was, and settles it on the next visit', { timeout: 60_000 }, async () => {
    const endpointId = await endpointWithDue(2);
    const before = await head(endpointId);
    const holder = new pg.Client({ connectionString: db.database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from webhook_delivery_heads where endpoint_id = $1 for update', [endpointId]);
      // Waiting for the holder would never end here: the holder commits only after the claim has answered.
      const claimed = await claim(T0);
      expect(claimed).toHaveLength(2);
      expect(await head(endpointId)).toEqual(before);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    // The head still says "due": the next claim visits it, finds both deliveries leased, and settles it.
    expect(await claim(T0 + 1_000)).toEqual([]);
    expect(await dueAt(endpointId)).toBe(new Date(T0 + 60_000).toISOString());
  });
});
