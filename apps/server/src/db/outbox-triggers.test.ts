import { sampleCustomer } from '@customers-api/core/testing';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTestSeller as newSeller, subscribeTestEndpoint as subscribe } from '../test/sellers-and-endpoints.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';
import { listChanges } from '../webhooks/changes.js';
import { connectDatabase, type DatabaseHandle } from './connect.js';
import { migrateToLatest, migrations } from './migrations.js';
import { SqlCustomerStore } from './sql-customer-store.js';
import { live } from '@customers-api/core/testing';

const roomy = { customerLimit: 1000 };
const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

const deliveriesOf = (handle: DatabaseHandle, customerId: string) =>
  handle.db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', 'sequence'])
    .where('customer_id', '=', customerId)
    .orderBy('id')
    .execute();

describe.each(DIALECTS)('the outbox triggers on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let store: SqlCustomerStore;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = await database.open();
    store = new SqlCustomerStore(handle);
  });
  afterAll(async () => database.dispose());

  it('record nothing for a seller without endpoints, yet count every change in the sequence', async () => {
    const seller = await newSeller(handle);
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, roomy);
    await store.updateCustomer(live(seller), ada.id, { status: 'suspended' }, later(ada.updated_at, 1));
    expect(await listChanges(handle, seller)).toEqual([]);

    const endpoint = await subscribe(handle, seller, ['customer.updated', 'customer.deleted']);
    await store.updateCustomer(live(seller), ada.id, { status: 'active' }, later(ada.updated_at, 2));
    await store.deleteCustomer(live(seller), ada.id);
    const changes = await listChanges(handle, seller);
    expect(changes.map(({ type, sequence }) => [type, sequence])).toEqual([
      ['customer.updated', 3],
      ['customer.deleted', 4],
    ]);
    expect(changes[0]!.previous?.status).toBe('suspended');
    expect(await deliveriesOf(handle, ada.id)).toEqual([
      { endpoint_id: endpoint, sequence: 3 },
      { endpoint_id: endpoint, sequence: 4 },
    ]);
  });

  it('record a change only when an endpoint subscribed to its type, and fan it out to each of them', async () => {
    const seller = await newSeller(handle);
    const onlyDeletes = await subscribe(handle, seller, ['customer.deleted']);
    const everything = await subscribe(handle, seller, ['customer.created', 'customer.updated', 'customer.deleted']);
    const other = await newSeller(handle);
    await subscribe(handle, other, ['customer.created']);
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, roomy);
    await store.deleteCustomer(live(seller), ada.id);
    expect((await listChanges(handle, seller)).map(({ type, sequence }) => [type, sequence])).toEqual([
      ['customer.created', 1],
      ['customer.deleted', 2],
    ]);
    const deliveries = await deliveriesOf(handle, ada.id);
    expect(deliveries).toHaveLength(3);
    expect(deliveries).toEqual(
      expect.arrayContaining([
        { endpoint_id: everything, sequence: 1 },
        { endpoint_id: onlyDeletes, sequence: 2 },
        { endpoint_id: everything, sequence: 2 },
      ]),
    );
    expect(await listChanges(handle, other)).toEqual([]);
  });

  it('refuse an update that does not advance the change number', async () => {
    const seller = await newSeller(handle);
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, roomy);
    await expect(
      handle.db.updateTable('customers').set({ first_name: 'Grace' }).where('id', '=', ada.id).execute(),
    ).rejects.toThrow(/event_sequence = event_sequence \+ 1/);
    expect((await store.findCustomer(live(seller), ada.id))?.first_name).toBe(ada.first_name);
  });
});

describe.each(DIALECTS)('migration 008 on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // createTestDatabase migrates what it opens; this connection starts empty and stops at 007, as older servers left it.
    handle = connectDatabase(database.url, { poolSize: 2 });
    const provider = { getMigrations: async () => migrations(dialect) };
    const result = await new Migrator({ db: handle.db, provider }).migrateTo('007_webhooks');
    expect(result.error).toBeUndefined();
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  it('carries each customer’s change number over from 007’s table', async () => {
    const seller = await newSeller(handle);
    const ada = sampleCustomer(seller);
    const grace = sampleCustomer(seller);
    for (const customer of [ada, grace]) {
      await sql`insert into customers (id, seller_id, first_name, last_name, email, email_normalized, status, address_data,
        source, created_at, updated_at) values (${customer.id}, ${seller}, ${customer.first_name}, ${customer.last_name},
        ${customer.email}, ${customer.email.toLowerCase()}, 'active', ${JSON.stringify(customer.address_data)},
        'api', ${customer.created_at}, ${customer.updated_at})`.execute(handle.db);
    }
    await sql`insert into customer_event_sequences (customer_id, sequence) values (${ada.id}, 5)`.execute(handle.db);
    await migrateToLatest(handle);

    await subscribe(handle, seller, ['customer.updated']);
    const store = new SqlCustomerStore(handle);
    for (const customer of [ada, grace]) {
      await store.updateCustomer(live(seller), customer.id, { status: 'inactive' }, later(customer.updated_at, 1));
    }
    const sequences = Object.fromEntries((await listChanges(handle, seller)).map((c) => [c.customerId, c.sequence]));
    expect(sequences).toEqual({ [ada.id]: 6, [grace.id]: 2 });
  });
});
