import { randomBytes, randomUUID } from 'node:crypto';
import { WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import { sampleCustomer } from '@customers-api/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { testEventChange } from '../dashboard/test-event.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { claimDeliveries, recordAttempt, type AttemptOutcome, type ClaimedDelivery } from './delivery-queue.js';
import { ENDPOINT_DELIVERY_SLOTS, endpointSlots, SELLER_DELIVERY_SLOTS } from './delivery-fairness.js';
import { createEndpoint, enableEndpoint, findEndpoint, listDeliveries, queueChange, resendDelivery } from './endpoints.js';
import { createSecretBox } from './secret-box.js';
import { live } from '@customers-api/core/testing';

// The claims of issue 23, straight on the queue (no HTTP, no real waiting): slots per seller and per endpoint
// counted from leased rows (so across workers, i.e. processes), round robin across sellers, fewer slots for an
// endpoint that times out, and an endpoint disabled after 5 days of failures.

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const TIMED_OUT: AttemptOutcome = { error: 'no answer within 10000 ms', timedOut: true };
const REFUSED: AttemptOutcome = { error: 'ECONNREFUSED: connect ECONNREFUSED' };

describe('endpointSlots', () => {
  it('halves an endpoint’s slots with each timeout in a row, down to one', () => {
    expect(ENDPOINT_DELIVERY_SLOTS).toBe(4);
    expect([0, 1, 2, 3, 50].map((timeouts) => endpointSlots(timeouts))).toEqual([4, 2, 1, 1, 1]);
    expect(SELLER_DELIVERY_SLOTS).toBeGreaterThan(ENDPOINT_DELIVERY_SLOTS);
  });
});

describe.each(DIALECTS)('fair claims on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  afterEach(async () => {
    await db.handle.db.deleteFrom('webhook_deliveries').execute();
  });

  async function endpoint(sellerId: string): Promise<string> {
    const created = await createEndpoint(db.handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}` });
    if (created.kind !== 'created') throw new Error(created.message);
    return created.endpoint.id;
  }
  /** `count` test events for the endpoint, due at `due` (each about its own customer: no order between them). */
  async function due(sellerId: string, endpointId: string, count: number, dueAt = at(0)) {
    for (let i = 0; i < count; i++) await queueChange(db.handle, endpointId, testEventChange(sellerId, dueAt), dueAt);
  }
  const claim = (owner: string, now = at(0), limit = 100) =>
    // Leases outlast every test's clock: only recorded attempts end them.
    claimDeliveries(db.handle, { now, leaseMs: 30 * 24 * 3_600_000, owner, limit, keyId: box.keyId });
  const perEndpoint = (claimed: ClaimedDelivery[]) =>
    claimed.reduce((counts, d) => counts.set(d.endpointId, (counts.get(d.endpointId) ?? 0) + 1), new Map<string, number>());

  it('caps attempts in flight per endpoint and per seller, counted across workers', async () => {
    const seller = await newTestSeller(db.handle);
    const endpoints = [await endpoint(seller), await endpoint(seller), await endpoint(seller)];
    for (const id of endpoints) await due(seller, id, 6);
    const first = await claim('process-1');
    expect(first).toHaveLength(SELLER_DELIVERY_SLOTS);
    expect(Math.max(...perEndpoint(first).values())).toBeLessThanOrEqual(ENDPOINT_DELIVERY_SLOTS);
    // Round robin across the seller's endpoints too: none left out.
    expect(perEndpoint(first).size).toBe(3);
    // Another process sees the first one's leases: nothing more for this seller.
    expect(await claim('process-2')).toEqual([]);
    // One attempt ends: one slot again, for whoever claims next.
    await recordAttempt(db.handle, first[0]!, { status: 204, acknowledged: true }, { now: at(1), owner: 'process-1' });
    expect(await claim('process-2', at(1))).toHaveLength(1);
  });

  it("serves sellers in turn: a later seller's first delivery comes before an earlier seller's backlog", async () => {
    const noisy = await newTestSeller(db.handle);
    const quiet = await newTestSeller(db.handle);
    const noisyEndpoints = [await endpoint(noisy), await endpoint(noisy), await endpoint(noisy)];
    for (const id of noisyEndpoints) await due(noisy, id, 10, at(-60_000));
    const quietEndpoint = await endpoint(quiet);
    await due(quiet, quietEndpoint, 1, at(0));
    const claimed = await claim('process-1', at(0), 2);
    expect(claimed.map((d) => d.endpointId)).toContain(quietEndpoint);
  });

  it('gives an endpoint that keeps timing out fewer slots, and keeps the retry schedule', async () => {
    const seller = await newTestSeller(db.handle);
    const slow = await endpoint(seller);
    await due(seller, slow, 10);
    const wave = await claim('process-1');
    expect(wave).toHaveLength(ENDPOINT_DELIVERY_SLOTS);
    for (const delivery of wave) {
      expect(await recordAttempt(db.handle, delivery, TIMED_OUT, { now: at(10_000), owner: 'process-1', random: () => 0 })).toBe('retrying');
    }
    const row = await db.handle.db.selectFrom('webhook_endpoints').select('timeouts_in_a_row').where('id', '=', slow).executeTakeFirstOrThrow();
    expect(row.timeouts_in_a_row).toBe(ENDPOINT_DELIVERY_SLOTS);
    // Six wait, due now: one slot only.
    expect(await claim('process-1', at(10_000))).toHaveLength(1);
    // The retried ones are due after core's first retry delay, exactly as promised.
    const retried = (await listDeliveries(db.handle, seller, slow))!.filter((d) => d.status === 'retrying');
    expect(retried.map((d) => Date.parse(d.next_attempt_at!) - T0)).toEqual(Array(4).fill(10_000 + WEBHOOK_RETRY_DELAYS_MS[0]!));
  });

  it('gives all slots back after an answer, even an error status', async () => {
    const seller = await newTestSeller(db.handle);
    const flaky = await endpoint(seller);
    await due(seller, flaky, 6);
    const [first] = await claim('process-1', at(0), 1);
    await recordAttempt(db.handle, first!, TIMED_OUT, { now: at(10_000), owner: 'process-1' });
    const [second] = await claim('process-1', at(10_000), 1);
    await recordAttempt(db.handle, second!, TIMED_OUT, { now: at(20_000), owner: 'process-1' });
    const slowed = await claim('process-1', at(20_000));
    expect(slowed).toHaveLength(1);
    await recordAttempt(db.handle, slowed[0]!, { status: 500, acknowledged: false }, { now: at(20_100), owner: 'process-1' });
    expect(await claim('process-2', at(20_100))).toHaveLength(ENDPOINT_DELIVERY_SLOTS);
  });

  it("keeps each customer's order, and an earlier change resent behind later ones goes before them", async () => {
    const seller = await newTestSeller(db.handle);
    const id = await endpoint(seller);
    const store = new SqlCustomerStore(db.handle);
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, { customerLimit: 1000 });
    const bump = async (n: number) =>
      store.updateCustomer(live(seller), ada.id, { status: n % 2 ? 'inactive' : 'active' }, new Date(Date.parse(ada.updated_at) + n).toISOString());
    await bump(1);
    await bump(2);
    // The outbox triggers stamp rows with the real clock: claims come a minute later.
    const later = (ms: number) => new Date(Date.now() + 60_000 + ms);
    const sequences = async (now: Date) => {
      const claimed = await claim('process-1', now);
      for (const d of claimed) await recordAttempt(db.handle, d, { status: 204, acknowledged: true }, { now, owner: 'process-1' });
      return claimed.map((d) => d.change.sequence);
    };
    expect(await sequences(later(0))).toEqual([1]);
    expect(await sequences(later(1))).toEqual([2]);
    expect(await sequences(later(2))).toEqual([3]);
    // Two more changes wait; the first one is resent after them: it is due last, yet goes first.
    await bump(3);
    await bump(4);
    const first = (await listDeliveries(db.handle, seller, id))!.at(-1)!;
    expect(await resendDelivery(db.handle, seller, id, first.event_id, { now: later(3) })).toBe(true);
    expect(await sequences(later(4))).toEqual([1]);
    expect(await sequences(later(5))).toEqual([4]);
    expect(await sequences(later(6))).toEqual([5]);
    expect(await claim('process-1', later(7))).toEqual([]);
  });

  it('disables an endpoint whose attempts all failed for 5 days; nothing more is recorded for it until it is enabled', async () => {
    const seller = await newTestSeller(db.handle);
    const dead = await endpoint(seller);
    const store = new SqlCustomerStore(db.handle);
    await due(seller, dead, 2);
    const [first, second] = await claim('process-1', at(0), 2);
    expect(await recordAttempt(db.handle, first!, REFUSED, { now: at(0), owner: 'process-1' })).toBe('retrying');
    // A success in between would start the count again; here none comes. Just before 5 days: still enabled.
    await due(seller, dead, 1, at(WEBHOOK_DISABLE_AFTER_MS - 1));
    const [almost] = await claim('process-1', at(WEBHOOK_DISABLE_AFTER_MS - 1), 1);
    expect(await recordAttempt(db.handle, almost!, REFUSED, { now: at(WEBHOOK_DISABLE_AFTER_MS - 1), owner: 'process-1' })).toBe('retrying');
    expect((await findEndpoint(db.handle, seller, dead))!.disabled).toBe(false);
    // 5 days after the first failure: disabled, and every waiting delivery is given up.
    expect(await recordAttempt(db.handle, second!, REFUSED, { now: at(WEBHOOK_DISABLE_AFTER_MS), owner: 'process-1' })).toBe('failed');
    const disabled = await findEndpoint(db.handle, seller, dead);
    expect(disabled).toMatchObject({ disabled: true, disabled_at: at(WEBHOOK_DISABLE_AFTER_MS).toISOString(), failing: true });
    // The server did it, and the audit log says so once (in the attempt's transaction).
    const audit = await db.handle.db.selectFrom('audit_log').selectAll().where('seller_id', '=', seller).execute();
    expect(audit.map((row) => [row.action, row.actor_type, row.target_id])).toEqual([['webhook_endpoint.disabled', 'server', dead]]);
    const deliveries = (await listDeliveries(db.handle, seller, dead))!;
    // The one never attempted (the claim before took the first one's retry) is skipped, not failed.
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([['skipped', 0], ['failed', 1], ['failed', 2]]);
    // No change is recorded for it while disabled, and nothing is claimed.
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, { customerLimit: 1000 });
    expect(await listDeliveries(db.handle, seller, dead)).toHaveLength(3);
    expect(await claim('process-1', at(WEBHOOK_DISABLE_AFTER_MS + 1))).toEqual([]);
    // A resend waits for the endpoint to be enabled.
    expect(await resendDelivery(db.handle, seller, dead, deliveries[0]!.event_id, { now: at(WEBHOOK_DISABLE_AFTER_MS + 1) })).toBe(true);
    expect(await claim('process-1', at(WEBHOOK_DISABLE_AFTER_MS + 2))).toEqual([]);

    // Enabled again: all slots, a fresh count of failing days, new changes recorded, the resend goes out.
    const enabled = await enableEndpoint(db.handle, seller, dead);
    expect(enabled).toMatchObject({ disabled: false, disabled_at: null });
    await store.deleteCustomer(live(seller), ada.id);
    expect(await listDeliveries(db.handle, seller, dead)).toHaveLength(4);
    const claimed = await claim('process-1', at(WEBHOOK_DISABLE_AFTER_MS + 3));
    expect(claimed).toHaveLength(2);
    expect(await recordAttempt(db.handle, claimed[0]!, REFUSED, { now: at(WEBHOOK_DISABLE_AFTER_MS + 3), owner: 'process-1' })).toBe('retrying');
    expect((await findEndpoint(db.handle, seller, dead))!.disabled).toBe(false);
    // Another seller cannot enable it: indistinguishable from a missing endpoint.
    expect(await enableEndpoint(db.handle, await newTestSeller(db.handle), dead)).toBeUndefined();
  });
});
