import { describeOutboxContract, describeStoreContract, sampleCustomer as customer } from '@customers-api/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTestSeller as newSeller, subscribeTestEndpoint } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { listChanges } from '../webhooks/changes.js';
import type { DatabaseHandle } from './connect.js';
import { countCustomers } from './sellers.js';
import { SqlCustomerStore } from './sql-customer-store.js';
import { live } from '@customers-api/core/testing';

const roomy = { customerLimit: 1000 };

for (const dialect of DIALECTS) {
  const db = useTestDatabase(dialect);
  const harness = {
    open: async () => new SqlCustomerStore(db.handle),
    // PostgreSQL: a second pool, as another server process would have. SQLite: one process shares one connection
    // (better-sqlite3 is synchronous); other processes are kept out by BEGIN IMMEDIATE and busy_timeout, which
    // the two-process tests in http/concurrency.test.ts exercise.
    another: async () => new SqlCustomerStore(dialect === 'postgres' ? await db.database.open() : db.handle),
    newSeller: () => newSeller(db.handle),
    countCustomers: (sellerId: string) => countCustomers(db.handle, sellerId),
    // The outbox as the delivery worker reads it: rows written by the triggers of migration 007.
    changes: (sellerId: string) => listChanges(db.handle, sellerId),
  };
  describeStoreContract(`SqlCustomerStore on ${dialect}`, harness);
  // Changes are recorded only for sellers with a subscribed endpoint (db/outbox-triggers.ts).
  describeOutboxContract(`SqlCustomerStore on ${dialect}`, {
    ...harness,
    newSeller: async () => {
      const sellerId = await newSeller(db.handle);
      await subscribeTestEndpoint(db.handle, sellerId);
      return sellerId;
    },
  });
}

describe.each(DIALECTS)('SqlCustomerStore on %s, beyond the contract', (dialect) => {
  const db = useTestDatabase(dialect);
  let store: SqlCustomerStore;

  beforeAll(async () => {
    store = new SqlCustomerStore(db.handle);
  });

  it('keeps each seller’s customer count (the limit check reads it) equal to its rows, also after refused writes', async () => {
    const sellerId = await newSeller(db.handle);
    const other = await newSeller(db.handle);
    const counted = async (id: string) => {
      const kept = await db.handle.db
        .selectFrom('customer_counts')
        .select('count')
        .where('seller_id', '=', id)
        .where('mode', '=', 'live')
        .executeTakeFirst();
      const actual = await db.handle.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', id)
        .executeTakeFirstOrThrow();
      return [Number(kept?.count ?? 0), Number(actual.n)];
    };
    const kept = customer(sellerId, { email: 'kept@example.com' });
    const gone = customer(sellerId);
    for (const c of [kept, gone, customer(other)]) await store.insertCustomer(c, roomy);
    expect(await store.insertCustomer(customer(sellerId, { email: 'KEPT@example.com' }), roomy)).toEqual({ kind: 'email_taken' });
    expect(await store.insertCustomer(customer(sellerId), { customerLimit: 2 })).toEqual({ kind: 'limit_reached' });
    expect(await store.deleteCustomer(live(sellerId), gone.id)).toBe(true);
    expect(await store.deleteCustomer(live(sellerId), gone.id)).toBe(false);
    expect(await counted(sellerId)).toEqual([1, 1]);
    expect(await counted(other)).toEqual([1, 1]);
  });

  it('concurrent creates: those over the plan limit or with a taken email store and record nothing', async () => {
    const sellerId = await newSeller(db.handle);
    await subscribeTestEndpoint(db.handle, sellerId);
    // 12 creates at once (on SQLite one group commit), 3 emails twice each; the limit lets 5 in.
    const creates = Array.from({ length: 12 }, (_, i) => customer(sellerId, { email: `c${i < 6 ? i % 3 : i}@example.com` }));
    const results = await Promise.all(creates.map((c) => store.insertCustomer(c, { customerLimit: 5 })));
    const created = creates.filter((_, i) => results[i]!.kind === 'created');
    const createdEmails = new Set(created.map((c) => c.email));
    expect(created).toHaveLength(5);
    expect(createdEmails.size).toBe(5);
    results.forEach((result, i) => {
      if (result.kind === 'email_taken') expect(createdEmails).toContain(creates[i]!.email);
      else expect(['created', 'limit_reached']).toContain(result.kind);
    });
    expect(await countCustomers(db.handle, sellerId)).toBe(5);
    const changes = await listChanges(db.handle, sellerId);
    expect(changes.map((change) => change.customerId).sort()).toEqual(created.map((c) => c.id).sort());
  });
});
