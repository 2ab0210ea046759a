import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/connect.js';
import { seedDeliveries } from '../test/seed-deliveries.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { GIVE_UP_BATCH, RESEND_FAILED_LIMIT } from './delivery-caps.js';
import { claimDeliveries } from './delivery-queue.js';
import { disableEndpoint, resendFailedSince } from './endpoint-edits.js';
import { countFailedSince } from './failed-since.js';
import { createEndpoint, resendDelivery } from './endpoints.js';
import { createSecretBox } from './secret-box.js';
import { SqlWebhookStore } from './sql-webhook-store.js';

// Issue 36: what one request makes the queue do is bounded. "Resend all failed since" queues a page and says
// whether more remain; disabling gives waiting deliveries up a batch at a time (the rest through later claims).

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

async function states(handle: DatabaseHandle, endpointId: string) {
  const rows = await handle.db.selectFrom('webhook_deliveries').select(['next_attempt_at', 'given_up_at']).where('endpoint_id', '=', endpointId).execute();
  return {
    waiting: rows.filter((row) => row.next_attempt_at !== null).length,
    failed: rows.filter((row) => row.next_attempt_at === null && row.given_up_at !== null).length,
  };
}

describe.each(DIALECTS)('delivery caps on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function endpoint(sellerId: string): Promise<string> {
    const created = await createEndpoint(db.handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}` });
    if (created.kind !== 'created') throw new Error(created.message);
    return created.endpoint.id;
  }

  it('resends at most RESEND_FAILED_LIMIT failed deliveries per request, oldest first, and says when more remain', async () => {
    const seller = await newTestSeller(db.handle);
    const id = await endpoint(seller);
    const total = 2 * RESEND_FAILED_LIMIT + 500;
    await seedDeliveries(db.handle, seller, id, total, { failedAt: at(-3_600_000).toISOString() });
    const resend = () => resendFailedSince(db.handle, seller, id, at(-86_400_000), at(0));
    // The page's count before each resend: what it will send, at most the cap, and whether more remain past it.
    const count = () => countFailedSince(db.handle, seller, id, at(-86_400_000));
    expect(await count()).toEqual({ count: RESEND_FAILED_LIMIT, more: true });
    expect(await resend()).toEqual({ id, resent: RESEND_FAILED_LIMIT, more: true });
    expect(await states(db.handle, id)).toEqual({ waiting: RESEND_FAILED_LIMIT, failed: total - RESEND_FAILED_LIMIT });
    expect(await resend()).toMatchObject({ resent: RESEND_FAILED_LIMIT, more: true });
    expect(await count()).toEqual({ count: 500, more: false });
    expect(await resend()).toMatchObject({ resent: 500, more: false });
    expect(await count()).toEqual({ count: 0, more: false });
    expect(await resend()).toMatchObject({ resent: 0, more: false });
    // Failed before `since`: not counted (they are not resent either).
    expect(await countFailedSince(db.handle, seller, id, at(-60_000))).toEqual({ count: 0, more: false });
    expect(await states(db.handle, id)).toEqual({ waiting: total, failed: 0 });
    // Another seller's request changes nothing.
    expect(await resendFailedSince(db.handle, await newTestSeller(db.handle), id, at(-86_400_000), at(0))).toBeUndefined();
    expect(await countFailedSince(db.handle, await newTestSeller(db.handle), id, at(-86_400_000))).toBeUndefined();
  });

  it('gives up a disabled endpoint’s waiting deliveries a batch at a time: the request one, claims the rest', async () => {
    const seller = await newTestSeller(db.handle);
    const id = await endpoint(seller);
    const total = 2 * GIVE_UP_BATCH + 500;
    await seedDeliveries(db.handle, seller, id, total, { dueAt: at(-60_000).toISOString() });
    expect(await disableEndpoint(db.handle, seller, id, at(0))).toMatchObject({ disabled: true });
    expect(await states(db.handle, id)).toEqual({ waiting: total - GIVE_UP_BATCH, failed: GIVE_UP_BATCH });
    // A delivery resent while disabled is not given up: it waits for the endpoint to be enabled.
    const given = await db.handle.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
      .select('c.event_id')
      .where('d.endpoint_id', '=', id)
      .where('d.next_attempt_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(await resendDelivery(db.handle, seller, id, given.event_id, { now: at(1) })).toBe(true);
    // (The suite's database is shared: only this endpoint's deliveries count.)
    const claim = async (now: Date) =>
      (await claimDeliveries(db.handle, { now, leaseMs: 60_000, owner: 'process-1', limit: 16, keyId: box.keyId })).filter((d) => d.endpointId === id);
    expect(await claim(at(1))).toEqual([]);
    expect(await states(db.handle, id)).toEqual({ waiting: 501, failed: total - 501 });
    expect(await claim(at(2))).toEqual([]);
    expect(await states(db.handle, id)).toEqual({ waiting: 1, failed: total - 1 });
    // Its queue head idles until the endpoint is enabled.
    const head = await db.handle.db.selectFrom('webhook_delivery_heads').select('due_at').where('endpoint_id', '=', id).executeTakeFirstOrThrow();
    expect(head.due_at).toBeNull();
  });

  it("the public API's disable gives up the same bounded batch, and its enable sends what was resent meanwhile", async () => {
    const seller = await newTestSeller(db.handle);
    const id = await endpoint(seller);
    const store = new SqlWebhookStore(db.handle, box, { actor: { type: 'api_key', id: null } }, () => at(0));
    const tenant = { sellerId: seller, mode: 'live' } as const;
    const total = GIVE_UP_BATCH + 300;
    await seedDeliveries(db.handle, seller, id, total, { dueAt: at(-60_000).toISOString() });
    expect(await store.updateEndpoint(tenant, id, { disabledAt: at(0).toISOString() })).toMatchObject({ kind: 'updated' });
    expect(await states(db.handle, id)).toEqual({ waiting: total - GIVE_UP_BATCH, failed: GIVE_UP_BATCH });
    const claim = async (now: Date) =>
      (await claimDeliveries(db.handle, { now, leaseMs: 60_000, owner: 'process-1', limit: 16, keyId: box.keyId })).filter((d) => d.endpointId === id);
    expect(await claim(at(1))).toEqual([]);
    expect(await states(db.handle, id)).toEqual({ waiting: 0, failed: total });
    const given = await db.handle.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
      .select('c.event_id')
      .where('d.endpoint_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await resendDelivery(db.handle, seller, id, given.event_id, { now: at(2) })).toBe(true);
    expect(await claim(at(3))).toEqual([]);
    expect(await store.updateEndpoint(tenant, id, { disabledAt: null })).toMatchObject({ kind: 'updated' });
    expect((await claim(at(4))).map((d) => d.change.event_id)).toEqual([given.event_id]);
  });
});
