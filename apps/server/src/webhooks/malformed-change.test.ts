import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testEventChange } from '../dashboard/test-event.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createEndpoint, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// No process dies of what it reads: an outbox row the worker cannot turn into an event (written by hand, by an old
// build, or damaged) is a failed attempt with the reason, retried on the schedule and visible, never an unhandled
// rejection that ends the process (which, the row being claimed again after a restart, would end it again).

const box = createSecretBox(randomBytes(32));

describe.each(DIALECTS)('a change the worker cannot read on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('is a failed attempt naming why, not the end of the process', async () => {
    const seller = await newTestSeller(db.handle);
    const created = await createEndpoint(db.handle, box, seller, { url: 'http://127.0.0.1:9/hooks' }, { allowPrivate: true });
    if (created.kind !== 'created') throw new Error(created.message);
    const now = new Date();
    await queueChange(db.handle, created.endpoint.id, testEventChange(seller, now), now);
    const [damaged] = await db.handle.db.selectFrom('customer_changes').select('id').where('seller_id', '=', seller).execute();
    await db.handle.db.updateTable('customer_changes').set({ customer: '{}' as never }).where('id', '=', damaged!.id).execute();

    const worker = new DeliveryWorker({ database: db.handle, secrets: box, allowPrivate: true, pollIntervalMs: 60_000 });
    try {
      expect((await worker.drain()).attempts).toBe(1);
    } finally {
      await worker.stop();
    }
    const row = await db.handle.db
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'delivered_at', 'last_error'])
      .where('endpoint_id', '=', created.endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ attempts: 1, delivered_at: null });
    expect(row.last_error).toMatch(/could not build the event/);
  });
});
