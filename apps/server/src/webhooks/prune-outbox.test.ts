import { sampleCustomer } from '@customers-api/core/testing';
import { WEBHOOK_EVENT_RETENTION_MS } from '@customers-api/core';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { DeliveryWorker } from './delivery-worker.js';
import { pruneFinishedChanges } from './prune-outbox.js';
import { createSecretBox } from './secret-box.js';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('pruning the outbox on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** A customer created `daysAgo` days before `now` (its created event happened then), for a subscribed seller. */
  async function eventFrom(sellerId: string, now: Date, daysAgo: number, finished: boolean) {
    const at = new Date(now.getTime() - daysAgo * DAY).toISOString();
    const customer = sampleCustomer(sellerId, { created_at: at, updated_at: at });
    await new SqlCustomerStore(db.handle).insertCustomer(customer, { customerLimit: 1000 });
    if (finished) {
      await db.handle.db
        .updateTable('webhook_deliveries')
        .set({ attempts: 1, next_attempt_at: null, delivered_at: at })
        .where('customer_id', '=', customer.id)
        .execute();
    }
    return customer.id;
  }

  const remaining = async (sellerId: string) => ({
    changes: (await db.handle.db.selectFrom('customer_changes').select('customer_id').where('seller_id', '=', sellerId).orderBy('id').execute()).map(
      (row) => row.customer_id,
    ),
    deliveries: (await db.handle.db.selectFrom('webhook_deliveries').select('customer_id').where('seller_id', '=', sellerId).orderBy('id').execute()).map(
      (row) => row.customer_id,
    ),
  });

  it('deletes finished events past the retention with their deliveries; keeps waiting and recent ones', async () => {
    const now = new Date();
    const sellerId = await newTestSeller(db.handle);
    await subscribeTestEndpoint(db.handle, sellerId);
    await eventFrom(sellerId, now, 31, true); // delivered: goes
    const oldStillRetrying = await eventFrom(sellerId, now, 31, false);
    await eventFrom(sellerId, now, 30.5, true); // delivered: goes
    const recent = await eventFrom(sellerId, now, 29, true);

    // Batches of 2: the walk goes on across batches until the first event inside the retention.
    expect(await pruneFinishedChanges(db.handle, { now, batchSize: 2 })).toBe(2);
    expect(await remaining(sellerId)).toEqual({ changes: [oldStillRetrying, recent], deliveries: [oldStillRetrying, recent] });
    // Nothing more to do: a second run deletes nothing.
    expect(await pruneFinishedChanges(db.handle, { now })).toBe(0);
    // The retention is core's: a day later the recent event is still kept, 31 days later it goes.
    expect(await pruneFinishedChanges(db.handle, { now: new Date(now.getTime() + DAY) })).toBe(0);
    expect(await pruneFinishedChanges(db.handle, { now: new Date(now.getTime() + WEBHOOK_EVENT_RETENTION_MS) })).toBe(1);
    expect((await remaining(sellerId)).changes).toEqual([oldStillRetrying]);
  });

  it('is run by the delivery worker, on the worker’s clock', async () => {
    const now = new Date();
    const sellerId = await newTestSeller(db.handle);
    await subscribeTestEndpoint(db.handle, sellerId);
    await eventFrom(sellerId, now, 2, true);
    const clock = { now: () => now.getTime() + WEBHOOK_EVENT_RETENTION_MS };
    const worker = new DeliveryWorker({ database: db.handle, secrets: createSecretBox(randomBytes(32)), clock });
    worker.start();
    await worker.prune();
    await worker.stop();
    expect((await remaining(sellerId)).changes).toEqual([]);
  });

  it('ends its walk with the batch holding the first event inside the retention (ids grow with time)', async () => {
    const now = new Date();
    const sellerId = await newTestSeller(db.handle);
    await subscribeTestEndpoint(db.handle, sellerId);
    const recent = await eventFrom(sellerId, now, 1, true);
    // Older, behind a newer id (a process whose clock was behind): left for a later run when batches are small.
    const skewed = await eventFrom(sellerId, now, 40, true);
    expect(await pruneFinishedChanges(db.handle, { now, batchSize: 1 })).toBe(0);
    expect((await remaining(sellerId)).changes).toEqual([recent, skewed]);
    // In one batch with the recent one, it goes.
    expect(await pruneFinishedChanges(db.handle, { now, batchSize: 500 })).toBe(1);
    expect((await remaining(sellerId)).changes).toEqual([recent]);
  });
});
