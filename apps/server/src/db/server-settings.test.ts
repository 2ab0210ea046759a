import { sampleCustomer } from '@customers-api/core/testing';
import { describe, expect, it } from 'vitest';
import { SqlCustomerStore } from './sql-customer-store.js';
import { LATEST_MIGRATION, migrateToLatest } from './migrations.js';
import { SERVER_SETTINGS, writeServerSettings } from './server-settings.js';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { SKIPPED_FOR_CAP, WAITING_DELIVERY_LIMIT } from '../webhooks/delivery-caps.js';

// Issue 36: the waiting cap's default lives in one place, WAITING_DELIVERY_LIMIT. The outbox triggers read it from
// server_settings, which every migrate (each start) writes from the constant; so another default takes effect
// when a build with it starts, with no migration. Counted in rows, never timed.

describe.each(DIALECTS)('the waiting cap’s default from server_settings on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  const settings = async () => db.handle.db.selectFrom('server_settings').selectAll().execute();
  const migrated = async () =>
    (await db.handle.db.selectFrom('kysely_migration' as never).select('name' as never).execute()).map((row) => (row as { name: string }).name);

  it('is written from the constant by the migrations', async () => {
    expect(SERVER_SETTINGS.waitingDeliveryLimit).toBe(WAITING_DELIVERY_LIMIT);
    expect(await settings()).toEqual([{ id: 1, waiting_delivery_limit: WAITING_DELIVERY_LIMIT }]);
  });

  it('changes the cap of a seller without its own when another default is written, as a start of that build does, without a migration', async () => {
    const before = await migrated();
    expect(before.at(-1)).toBe(LATEST_MIGRATION);
    const seller = await newTestSeller(db.handle);
    const endpoint = await subscribeTestEndpoint(db.handle, seller);
    const store = new SqlCustomerStore(db.handle);
    const statuses = async () =>
      (await db.handle.db.selectFrom('webhook_deliveries').select(['next_attempt_at', 'last_error']).where('endpoint_id', '=', endpoint).orderBy('id').execute()).map(
        (row) => (row.next_attempt_at === null ? row.last_error : 'waiting'),
      );
    try {
      // A build whose default is 2.
      await writeServerSettings(db.handle.db, { waitingDeliveryLimit: 2 });
      for (let i = 0; i < 3; i++) await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1_000 });
      expect(await statuses()).toEqual(['waiting', 'waiting', SKIPPED_FOR_CAP]);
      // A seller's own cap still wins over the default.
      await db.handle.db.updateTable('sellers').set({ waiting_delivery_limit: 3 }).where('id', '=', seller).execute();
      await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1_000 });
      expect(await statuses()).toEqual(['waiting', 'waiting', SKIPPED_FOR_CAP, 'waiting']);
      await db.handle.db.updateTable('sellers').set({ waiting_delivery_limit: null }).where('id', '=', seller).execute();
    } finally {
      // This build starting again: migrate finds nothing to run and writes its own default back.
      await migrateToLatest(db.handle);
    }
    expect(await migrated()).toEqual(before);
    expect(await settings()).toEqual([{ id: 1, waiting_delivery_limit: WAITING_DELIVERY_LIMIT }]);
    await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1_000 });
    expect((await statuses()).at(-1)).toBe('waiting');
  });
});
