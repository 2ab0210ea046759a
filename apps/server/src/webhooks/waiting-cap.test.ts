import { randomBytes } from 'node:crypto';
import { sampleCustomer } from '@customers-api/core/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import type { DatabaseHandle } from '../db/connect.js';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { createServerMetrics } from '../observability/metrics.js';
import { seedDeliveries } from '../test/seed-deliveries.js';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { SKIPPED_FOR_CAP, WAITING_DELIVERY_LIMIT } from './delivery-caps.js';
import { claimDeliveries, recordAttempt } from './delivery-queue.js';
import { createEndpoint, deleteEndpoint, listDeliveries, resendDelivery } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 36: a seller's waiting deliveries have a cap. Beyond it a change is still recorded as an event, but its
// deliveries are written `skipped` (visible, resendable), never queued and never lost. The count the cap reads is
// kept on the queue heads by triggers, whoever writes the rows (here: SQL seeding the backlog as the server
// writes it), and the queue-depth gauge reads the same counts. Counted in rows, never timed.

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

async function waiting(handle: DatabaseHandle, sellerId: string): Promise<{ counted: number; rows: number }> {
  const counted = await handle.db.selectFrom('webhook_delivery_heads').select((eb) => eb.fn.sum<number | string>('waiting').as('n')).where('seller_id', '=', sellerId).executeTakeFirst();
  const rows = await handle.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('seller_id', '=', sellerId)
    .where('next_attempt_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return { counted: Number(counted?.n ?? 0), rows: Number(rows.n) };
}

async function queueDepth(handle: DatabaseHandle): Promise<number> {
  const metrics = createServerMetrics();
  metrics.watchDatabase(handle);
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'customers_webhook_queue_depth');
  expect(metric?.values).toHaveLength(1); // one unlabelled series
  return metric!.values[0]!.value;
}

describe.each(DIALECTS)('the cap on a seller’s waiting deliveries on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('skips the deliveries of events beyond the default cap, keeps the events, and resends a skipped one', { timeout: 300_000 }, async () => {
    const seller = await newTestSeller(db.handle);
    const quiet = await newTestSeller(db.handle);
    const endpoint = await subscribeTestEndpoint(db.handle, seller);
    const quietEndpoint = await subscribeTestEndpoint(db.handle, quiet);
    // One short of the cap, seeded with SQL as the outbox triggers write rows (a customer each).
    await seedDeliveries(db.handle, seller, endpoint, WAITING_DELIVERY_LIMIT - 1, { dueAt: at(-60_000).toISOString() });
    expect(await waiting(db.handle, seller)).toEqual({ counted: WAITING_DELIVERY_LIMIT - 1, rows: WAITING_DELIVERY_LIMIT - 1 });

    const store = new SqlCustomerStore(db.handle);
    const customers = [sampleCustomer(seller), sampleCustomer(seller), sampleCustomer(quiet)];
    for (const customer of customers) await store.insertCustomer(customer, { customerLimit: 1_000 });
    // The first reached the cap and is queued; the second is past it: its event is recorded, its delivery skipped.
    const events = await db.handle.db
      .selectFrom('customer_changes')
      .select(['id', 'customer_id'])
      .where('customer_id', 'in', customers.map((c) => c.id))
      .execute();
    expect(events).toHaveLength(3);
    expect(await waiting(db.handle, seller)).toEqual({ counted: WAITING_DELIVERY_LIMIT, rows: WAITING_DELIVERY_LIMIT });
    const skipped = await db.handle.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
      .select(['c.event_id', 'd.customer_id', 'd.next_attempt_at', 'd.given_up_at', 'd.last_error', 'd.attempts'])
      .where('d.customer_id', 'in', customers.map((c) => c.id))
      .execute();
    const bySkipped = (id: string) => skipped.find((row) => row.customer_id === id)!;
    expect(bySkipped(customers[0]!.id).next_attempt_at).not.toBeNull();
    expect(bySkipped(customers[1]!.id)).toMatchObject({ next_attempt_at: null, last_error: SKIPPED_FOR_CAP, attempts: 0 });
    expect(bySkipped(customers[1]!.id).given_up_at).not.toBeNull();
    // Another seller's events are not held back.
    expect(bySkipped(customers[2]!.id).next_attempt_at).not.toBeNull();
    expect(await waiting(db.handle, quiet)).toEqual({ counted: 1, rows: 1 });
    expect(await queueDepth(db.handle)).toBe(WAITING_DELIVERY_LIMIT + 1);

    // Listed as skipped, and resendable: it waits again (the cap holds back new events, not a seller's resend).
    const listed = (await listDeliveries(db.handle, seller, endpoint))!.find((d) => d.customer_id === customers[1]!.id)!;
    expect(listed).toMatchObject({ status: 'skipped', attempts: 0, last_error: SKIPPED_FOR_CAP });
    expect(await resendDelivery(db.handle, seller, endpoint, bySkipped(customers[1]!.id).event_id, { now: at(0) })).toBe(true);
    expect(await waiting(db.handle, seller)).toEqual({ counted: WAITING_DELIVERY_LIMIT + 1, rows: WAITING_DELIVERY_LIMIT + 1 });

    // The operator's own cap for the seller (the CLI): room again, the next change is queued.
    let said = '';
    const io = { out: (t: string) => (said += t), err: (t: string) => (said += t), env: {} };
    const limit = String(WAITING_DELIVERY_LIMIT + 10);
    expect(await runCli(['sellers', 'update', seller, '--waiting-delivery-limit', limit, '--database', db.database.url], io)).toBe(0);
    expect(said).toBe(`Updated seller ${seller} ("Test seller"): up to ${limit} waiting deliveries\n`);
    const later = sampleCustomer(seller);
    await store.insertCustomer(later, { customerLimit: 1_000 });
    const queued = await db.handle.db.selectFrom('webhook_deliveries').select('next_attempt_at').where('customer_id', '=', later.id).executeTakeFirstOrThrow();
    expect(queued.next_attempt_at).not.toBeNull();

    // Deleting the endpoint takes its waiting deliveries and its head: the gauge counts only the quiet seller's.
    expect(await deleteEndpoint(db.handle, seller, endpoint)).toBe(true);
    expect(await waiting(db.handle, seller)).toEqual({ counted: 0, rows: 0 });
    expect(await queueDepth(db.handle)).toBe(1);
    await db.handle.db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', quietEndpoint).execute();
    expect(await queueDepth(db.handle)).toBe(0);
  });

  it('keeps the count through attempts, retries, give-ups, resends and deletes of single rows', async () => {
    const seller = await newTestSeller(db.handle);
    // Sealed with this test's key, so its claims take them.
    const created = await createEndpoint(db.handle, box, seller, { url: 'https://receiver.example/hooks/counted' });
    if (created.kind !== 'created') throw new Error(created.message);
    const endpoint = created.endpoint.id;
    await db.handle.db.updateTable('sellers').set({ waiting_delivery_limit: 3 }).where('id', '=', seller).execute();
    const store = new SqlCustomerStore(db.handle);
    for (let i = 0; i < 5; i++) await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1_000 });
    expect(await waiting(db.handle, seller)).toEqual({ counted: 3, rows: 3 });
    const statuses = async () => (await listDeliveries(db.handle, seller, endpoint))!.map((d) => d.status).sort();
    expect(await statuses()).toEqual(['pending', 'pending', 'pending', 'skipped', 'skipped']);

    const claimed = await claimDeliveries(db.handle, { now: new Date(), leaseMs: 60_000, owner: 'p1', limit: 3, keyId: box.keyId });
    expect(claimed).toHaveLength(3);
    const now = new Date();
    expect(await recordAttempt(db.handle, claimed[0]!, { status: 204, acknowledged: true }, { now, owner: 'p1' })).toBe('delivered');
    expect(await recordAttempt(db.handle, claimed[1]!, { status: 500, acknowledged: false }, { now, owner: 'p1' })).toBe('retrying');
    expect(await waiting(db.handle, seller)).toEqual({ counted: 2, rows: 2 });
    // Given up by hand (as after the last retry), then the other deleted: nothing waits, in both counts.
    await db.handle.db.updateTable('webhook_deliveries').set({ next_attempt_at: null, lease_until: null, lease_owner: null }).where('id', '=', claimed[1]!.id).execute();
    await db.handle.db.deleteFrom('webhook_deliveries').where('id', '=', claimed[2]!.id).execute();
    expect(await waiting(db.handle, seller)).toEqual({ counted: 0, rows: 0 });
    // Room again: the next change is queued.
    await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1_000 });
    expect(await waiting(db.handle, seller)).toEqual({ counted: 1, rows: 1 });
    // One statement changing many rows (PostgreSQL: one trigger run per statement) moves the count by the right amount.
    await sql`update webhook_deliveries set next_attempt_at = ${at(0).toISOString()} where endpoint_id = ${endpoint}`.execute(db.handle.db);
    expect(await waiting(db.handle, seller)).toEqual({ counted: 5, rows: 5 });
  });
});
