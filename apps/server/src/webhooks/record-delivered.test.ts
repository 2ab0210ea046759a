import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testEventChange } from '../dashboard/test-event.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { claimDeliveries, recordDelivered } from './delivery-queue.js';
import { createEndpoint, findEndpoint, listDeliveries, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 36: the worker records acknowledged attempts a batch per transaction. Row for row the same outcome as one
// recordAttempt each: delivered with the receiver's status, the attempt kept, the endpoint's health cleared; a row
// whose lease another worker holds now is left alone and reported lost.

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

describe.each(DIALECTS)('recordDelivered on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('records a batch of acknowledged attempts in one go, and leaves a row another worker holds', async () => {
    const seller = await newTestSeller(db.handle);
    const created = await createEndpoint(db.handle, box, seller, { url: 'https://receiver.example/hooks/batch' });
    if (created.kind !== 'created') throw new Error(created.message);
    const endpoint = created.endpoint.id;
    for (let i = 0; i < 4; i++) await queueChange(db.handle, endpoint, testEventChange(seller, at(0)), at(0));
    const claimed = await claimDeliveries(db.handle, { now: at(0), leaseMs: 60_000, owner: 'p1', limit: 4, keyId: box.keyId });
    expect(claimed).toHaveLength(4);
    // Unhealthy since (timeouts in a row: fewer slots, had it been set before the claim).
    await db.handle.db.updateTable('webhook_endpoints').set({ timeouts_in_a_row: 2, attempts_failing_since: at(-1000).toISOString() }).where('id', '=', endpoint).execute();
    // Its lease lapsed and another worker took it over.
    const stolen = claimed[3]!;
    await db.handle.db.updateTable('webhook_deliveries').set({ lease_owner: 'p2' }).where('id', '=', stolen.id).execute();

    const statuses = [204, 200, 204, 204];
    const results = await recordDelivered(
      db.handle,
      claimed.map((delivery, i) => ({
        delivery,
        outcome: { status: statuses[i]!, body: `ok ${i}` },
        sent: { startedAt: at(10), durationMs: 3, signature: `v1,sig${i}` },
      })),
      { now: at(20), owner: 'p1' },
    );
    expect(claimed.map((d) => results.get(d.id))).toEqual(['delivered', 'delivered', 'delivered', 'lost']);

    const listed = (await listDeliveries(db.handle, seller, endpoint))!;
    const byEvent = new Map(listed.map((d) => [d.event_id, d]));
    claimed.slice(0, 3).forEach((delivery, i) => {
      expect(byEvent.get(delivery.change.event_id)).toMatchObject({ status: 'delivered', attempts: 1, last_status_code: statuses[i], delivered_at: at(20).toISOString() });
    });
    expect(byEvent.get(stolen.change.event_id)).toMatchObject({ status: 'pending', attempts: 0, last_status_code: null });
    const kept = await db.handle.db
      .selectFrom('webhook_delivery_attempts')
      .select(['delivery_id', 'attempt', 'status_code', 'response_body', 'signature', 'duration_ms'])
      .where('endpoint_id', '=', endpoint)
      .orderBy('delivery_id')
      .execute();
    expect(kept.map((row) => [Number(row.delivery_id), row.attempt, row.status_code, row.response_body, row.signature, row.duration_ms])).toEqual(
      claimed.slice(0, 3).map((d, i) => [d.id, 1, statuses[i], `ok ${i}`, `v1,sig${i}`, 3]),
    );
    expect(await findEndpoint(db.handle, seller, endpoint)).toMatchObject({ failing: false });
    const health = await db.handle.db.selectFrom('webhook_endpoints').select(['timeouts_in_a_row', 'attempts_failing_since']).where('id', '=', endpoint).executeTakeFirstOrThrow();
    expect(health).toEqual({ timeouts_in_a_row: 0, attempts_failing_since: null });
    // The waiting count on the queue head saw the three go.
    const head = await db.handle.db.selectFrom('webhook_delivery_heads').select('waiting').where('endpoint_id', '=', endpoint).executeTakeFirstOrThrow();
    expect(Number(head.waiting)).toBe(1);
  });
});
