import { randomBytes, randomUUID } from 'node:crypto';
import { sampleCustomer } from '@customers-api/core/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { seedDeliveries } from '../test/seed-deliveries.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { SKIPPED_FOR_CAP } from './delivery-caps.js';
import { SELLER_DELIVERY_SLOTS } from './delivery-fairness.js';
import { claimDeliveries } from './delivery-queue.js';
import { createEndpoint } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 38: live deliveries are never delayed by test ones. Each delivery and queue head carries its endpoint's
// mode (migration 029); a seller's busy slots are counted per mode, and so is its waiting cap. Counted, not timed:
// a black-hole receiver is a claim whose leases are never recorded (they outlast the test).

const box = createSecretBox(randomBytes(32));
/** Claims look a minute ahead of the wall clock: everything the triggers wrote "now" is due. */
const later = () => new Date(Date.now() + 60_000);

describe.each(DIALECTS)('delivery modes on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function endpoint(sellerId: string, mode: 'live' | 'test'): Promise<string> {
    const created = await createEndpoint(db.handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}` });
    if (created.kind !== 'created') throw new Error(created.message);
    // As a test key's endpoint create writes it.
    if (mode === 'test') await sql`update webhook_endpoints set mode = 'test' where id = ${created.endpoint.id}`.execute(db.handle.db);
    return created.endpoint.id;
  }
  const claim = (owner: string, limit = 100) =>
    claimDeliveries(db.handle, { now: later(), leaseMs: 30 * 24 * 3_600_000, owner, limit, keyId: box.keyId });
  const modeOf = async (table: 'webhook_deliveries' | 'webhook_delivery_heads', endpointId: string) =>
    (await db.handle.db.selectFrom(table).select('mode').distinct().where('endpoint_id', '=', endpointId).execute()).map((r) => r.mode);

  it("attempts a live event at once while the same seller's test backlog holds every slot at a black hole", async () => {
    const seller = await newTestSeller(db.handle);
    const testEndpoints = [await endpoint(seller, 'test'), await endpoint(seller, 'test'), await endpoint(seller, 'test')];
    const liveEndpoint = await endpoint(seller, 'live');
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const id of testEndpoints) await seedDeliveries(db.handle, seller, id, 20, { dueAt: longAgo });
    expect(await modeOf('webhook_deliveries', testEndpoints[0]!)).toEqual(['test']);
    expect(await modeOf('webhook_delivery_heads', testEndpoints[0]!)).toEqual(['test']);

    // The black hole takes every test slot of the seller and never answers.
    const held = await claim('black-hole');
    expect(held).toHaveLength(SELLER_DELIVERY_SLOTS);
    expect(held.every((d) => testEndpoints.includes(d.endpointId))).toBe(true);
    expect(await claim('black-hole')).toEqual([]);

    // A live customer created now: its one delivery, due after all 52 test deliveries still waiting, goes first.
    const customer = sampleCustomer(seller);
    await new SqlCustomerStore(db.handle).insertCustomer(customer, { customerLimit: 1_000 });
    expect(await modeOf('webhook_deliveries', liveEndpoint)).toEqual(['live']);
    expect(await modeOf('webhook_delivery_heads', liveEndpoint)).toEqual(['live']);
    const next = await claim('worker');
    expect(next.map((d) => [d.endpointId, d.change.customer_id])).toEqual([[liveEndpoint, customer.id]]);
    // The test lane stays full: nothing of the backlog went with it.
    expect(await claim('worker')).toEqual([]);
  });

  it("counts the waiting cap per mode: a test backlog at the cap skips test events only, never live ones", async () => {
    const seller = await newTestSeller(db.handle);
    const testEndpoint = await endpoint(seller, 'test');
    const liveEndpoint = await endpoint(seller, 'live');
    await db.handle.db.updateTable('sellers').set({ waiting_delivery_limit: 10 }).where('id', '=', seller).execute();
    await seedDeliveries(db.handle, seller, testEndpoint, 10, { dueAt: new Date().toISOString() });

    const store = new SqlCustomerStore(db.handle);
    const liveCustomer = sampleCustomer(seller);
    const testCustomer = sampleCustomer(seller, { livemode: false });
    await store.insertCustomer(liveCustomer, { customerLimit: 1_000 });
    await store.insertCustomer(testCustomer, { customerLimit: 1_000 });
    const rows = await db.handle.db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'mode', 'next_attempt_at', 'last_error'])
      .where('customer_id', 'in', [liveCustomer.id, testCustomer.id])
      .orderBy('mode')
      .execute();
    expect(rows.map((r) => [r.endpoint_id, r.mode, r.next_attempt_at !== null, r.last_error])).toEqual([
      [liveEndpoint, 'live', true, null],
      [testEndpoint, 'test', false, SKIPPED_FOR_CAP],
    ]);
    // The heads count each mode's waiting deliveries on its own.
    const waiting = await sql<{ mode: string; n: number | string }>`select mode, sum(waiting) as n from webhook_delivery_heads
      where seller_id = ${seller} group by mode order by mode`.execute(db.handle.db);
    expect(waiting.rows.map((r) => [r.mode, Number(r.n)])).toEqual([
      ['live', 1],
      ['test', 10],
    ]);
  });
});
