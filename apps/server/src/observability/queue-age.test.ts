import { describe, expect, it } from 'vitest';
import { seedDeliveries } from '../test/seed-deliveries.js';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { createServerMetrics } from './metrics.js';

// Issue 35: a receiver down for 40 s showed an "oldest due" age of at most 8 s, because a delivery waiting out its
// retry back-off is not due. The oldest *waiting* age counts it, from when the delivery was queued. The metrics'
// clock is injected: the ages are exact, whatever the machine's speed.

const T0 = Date.parse('2026-11-26T12:00:00.000Z');

describe.each(DIALECTS)('the oldest waiting delivery on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('counts a delivery in back-off as waiting, its age from when it was queued; due-only age stays 0', async () => {
    let now = T0 + 40_000;
    const metrics = createServerMetrics({ now: () => now });
    metrics.watchDatabase(db.handle);
    const gauge = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;

    expect(await gauge('customers_webhook_queue_oldest_waiting_age_seconds')).toBe(0);
    const seller = await newTestSeller(db.handle);
    const endpoint = await subscribeTestEndpoint(db.handle, seller);
    // Three deliveries queued at T0, each failed twice and waiting out a back-off that ends at T0 + 5 min.
    await seedDeliveries(db.handle, seller, endpoint, 3, { dueAt: new Date(T0).toISOString() });
    await db.handle.db.updateTable('webhook_deliveries').set({ attempts: 2, next_attempt_at: new Date(T0 + 300_000).toISOString() }).where('endpoint_id', '=', endpoint).execute();

    now += 1_000; // a new scrape (the figures are read once a second)
    expect(await gauge('customers_webhook_queue_oldest_waiting_age_seconds')).toBe(41);
    expect(await gauge('customers_webhook_queue_oldest_due_age_seconds')).toBe(0);
    expect(await gauge('customers_webhook_queue_depth')).toBe(3);

    // Delivered or given up: no longer waiting.
    await db.handle.db.updateTable('webhook_deliveries').set({ next_attempt_at: null, delivered_at: new Date(T0 + 60_000).toISOString() }).where('endpoint_id', '=', endpoint).execute();
    now += 1_000;
    expect(await gauge('customers_webhook_queue_oldest_waiting_age_seconds')).toBe(0);
  });
});
