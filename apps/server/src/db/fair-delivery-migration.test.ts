import { sampleCustomer } from '@customers-api/core/testing';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newTestSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { migrateToLatest, migrations } from './migrations.js';
import { customerToRow } from './rows.js';
import { SqlCustomerStore } from './sql-customer-store.js';

// Migration 009_fair_delivery goes down to 008 and up again on both databases, and its triggers are the ones that
// skip disabled endpoints, while 008's still record for every endpoint.

describe.each(DIALECTS)('migration 009_fair_delivery on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const deliveriesOf = (sellerId: string) =>
    db.handle.db.selectFrom('webhook_deliveries').select('id').where('seller_id', '=', sellerId).execute().then((rows) => rows.length);

  it('goes down to 008 (every endpoint receives again) and up again (disabled endpoints skipped)', async () => {
    const store = new SqlCustomerStore(db.handle);
    const seller = await newTestSeller(db.handle);
    const endpoint = await subscribeTestEndpoint(db.handle, seller);
    await db.handle.db.updateTable('webhook_endpoints').set({ disabled_at: new Date().toISOString() }).where('id', '=', endpoint).execute();
    await store.insertCustomer(sampleCustomer(seller), { customerLimit: 100 });
    expect(await deliveriesOf(seller)).toBe(0);

    const migrator = new Migrator({ db: db.handle.db, provider: { getMigrations: async () => migrations(dialect) } });
    const down = await migrator.migrateTo('008_outbox_when_subscribed');
    expect(down.error).toBeUndefined();
    // Later migrations go down first; 009 is the last one undone.
    expect(down.results?.every((r) => r.direction === 'Down' && r.status === 'Success')).toBe(true);
    expect(down.results?.at(-1)?.migrationName).toBe('009_fair_delivery');
    const columns = (table: string) =>
      db.handle.db.introspection.getTables().then((tables) => tables.find((t) => t.name === table)!.columns.map((c) => c.name));
    expect(await columns('webhook_endpoints')).not.toContain('disabled_at');
    expect(await columns('sellers')).not.toContain('webhook_endpoint_limit');
    // The store writes today's schema (a mode since 020): at 008 a customer is inserted with that schema's columns.
    const { mode: _mode, ...row } = customerToRow(sampleCustomer(seller));
    await db.handle.db.insertInto('customers').values(row as never).execute();
    expect(await deliveriesOf(seller)).toBe(1);

    await migrateToLatest(db.handle);
    expect(await columns('webhook_endpoints')).toEqual(expect.arrayContaining(['disabled_at', 'attempts_failing_since', 'timeouts_in_a_row']));
    await db.handle.db.updateTable('webhook_endpoints').set({ disabled_at: new Date().toISOString() }).where('id', '=', endpoint).execute();
    await store.insertCustomer(sampleCustomer(seller), { customerLimit: 100 });
    expect(await deliveriesOf(seller)).toBe(1);
  });
});
