import { createHash } from 'node:crypto';
import { sampleCustomer as customer } from '@customers-api/core/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newTestSeller as newSeller } from '../test/sellers-and-endpoints.js';
import { useTestDatabase } from '../test/test-database.js';
import { createApiKey, findActiveKeyWithPage } from './api-keys.js';
import { connectDatabase, type DatabaseHandle } from './connect.js';
import { listCustomerPage } from './list-page.js';
import { customerToRow } from './rows.js';
import { SqlCustomerStore } from './sql-customer-store.js';
import { writeTransaction } from './write-transaction.js';
import { live } from '@customers-api/core/testing';

describe('a list page on a SQLite file', () => {
  const db = useTestDatabase('sqlite');

  it('is read from committed data at once, not queued behind an open write transaction', async () => {
    const store = new SqlCustomerStore(db.handle);
    const sellerId = await newSeller(db.handle);
    const committed = customer(sellerId, { email: 'committed@example.com' });
    await store.insertCustomer(committed, { customerLimit: 10 });
    const seen = await writeTransaction(db.handle, async (trx) => {
      await trx.insertInto('customers').values(customerToRow(customer(sellerId, { email: 'open@example.com' }))).execute();
      // Queued behind this transaction, the page could not be answered before the event loop's next turn.
      const nextTurn = new Promise<'queued'>((resolve) => setImmediate(() => resolve('queued')));
      return Promise.race([store.listCustomers(live(sellerId), { limit: 21 }), nextTurn]);
    });
    expect(seen).toEqual([committed]);
    expect((await store.listCustomers(live(sellerId), { limit: 21 })).map((c) => c.email)).toEqual(['open@example.com', 'committed@example.com']);
  });
});

describe('a list page on PostgreSQL', () => {
  const db = useTestDatabase('postgres');

  async function sellerWithCustomers(count: number) {
    const store = new SqlCustomerStore(db.handle);
    const sellerId = await newSeller(db.handle);
    const { key } = await createApiKey(db.handle, { sellerId, name: 'list' });
    for (let n = 0; n < count; n++) await store.insertCustomer(customer(sellerId, { email: `c${n}@example.com` }), { customerLimit: 100 });
    return { sellerId, keyHash: createHash('sha256').update(key).digest('hex') };
  }

  /** Generic plans per prepared statement of this connection, by statement family (shape, limit, status cut off). */
  async function genericPlans(handle: DatabaseHandle): Promise<Record<string, number>> {
    const plans = (await handle.prepared!({ name: 'prepared_plans', text: 'select name, generic_plans from pg_prepared_statements' }, [])) as Array<{ name: string; generic_plans: string }>;
    return Object.fromEntries(plans.map(({ name, generic_plans }) => [name.replace(/_\d+_\d+(_\w+)?$/, ''), Number(generic_plans)]));
  }

  it('is planned once per connection, not again on every request (alone or with the key)', async () => {
    const { sellerId, keyHash } = await sellerWithCustomers(4);
    // One connection: the prepared statements seen below are the ones the reads used.
    const handle = connectDatabase(db.database.url, { poolSize: 1 });
    try {
      for (let n = 0; n < 8; n++) {
        await listCustomerPage(handle, live(sellerId), { limit: 3, status: 'active' });
        await findActiveKeyWithPage(handle, keyHash, { limit: 3, status: 'active' });
      }
      const generic = await genericPlans(handle);
      // A LIMIT taken as a parameter kept PostgreSQL on a custom plan, made anew for every execution.
      expect(generic.customer_list_v3).toBeGreaterThan(0);
      expect(generic.active_key_with_page_v8).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  });

  it('filtered by status, stays planned once when the table holds several statuses and is analyzed', async () => {
    const { sellerId, keyHash } = await sellerWithCustomers(1);
    // The full bench's table after its PATCH rows: statuses mixed, most active, statistics that say so.
    await sql`insert into customers (id, seller_id, first_name, last_name, email, email_normalized, status, source, created_at, updated_at)
      select gen_random_uuid(), ${sellerId}, 'F', 'L', 'm' || i || '@example.com', 'm' || i || '@example.com',
        (array['active', 'active', 'active', 'active', 'inactive', 'suspended'])[1 + i % 6], 'api',
        timestamptz '2026-01-01' + i * interval '1 second', now()
      from generate_series(1, 3000) as i`.execute(db.handle.db);
    await sql`analyze customers`.execute(db.handle.db);
    const handle = connectDatabase(db.database.url, { poolSize: 1 });
    try {
      for (let n = 0; n < 8; n++) {
        await listCustomerPage(handle, live(sellerId), { limit: 21, status: 'active' });
        await findActiveKeyWithPage(handle, keyHash, { limit: 21, status: 'active' });
      }
      const generic = await genericPlans(handle);
      // With the status a parameter, its generic plan counted a third of the rows as matching (one of three values)
      // against most of them for 'active', looked dearer than a custom plan and was never used again: every page
      // planned anew (in the full bench, about 170 µs more PostgreSQL CPU per page once autoanalyze had run).
      expect(generic.customer_list_v3).toBeGreaterThan(0);
      expect(generic.active_key_with_page_v8).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
    for (const status of ['active', 'inactive', 'suspended'] as const) {
      const page = await listCustomerPage(db.handle, live(sellerId), { limit: 21, status });
      expect(page).toHaveLength(21);
      expect(page.every((row) => row.status === status)).toBe(true);
      expect((await findActiveKeyWithPage(db.handle, keyHash, { limit: 21, status }))?.rows).toEqual(page);
    }
  });

  it('reads the same page with the key as alone, for any limit, and nothing for an unknown key', async () => {
    const { sellerId, keyHash } = await sellerWithCustomers(5);
    const empty = await sellerWithCustomers(0);
    const all = await listCustomerPage(db.handle, live(sellerId), { limit: 10 });
    expect(all).toHaveLength(5);
    // Past the statements that have their limit written in (64), the limit is a parameter: the same pages.
    for (let limit = 1; limit <= 101; limit++) {
      const expected = all.slice(0, limit);
      expect(await listCustomerPage(db.handle, live(sellerId), { limit })).toEqual(expected);
      const found = await findActiveKeyWithPage(db.handle, keyHash, { limit });
      expect(found?.key.sellerId).toBe(sellerId);
      expect(found?.rows).toEqual(expected);
    }
    const after = { createdAt: all[1]!.created_at, id: all[1]!.id };
    expect((await findActiveKeyWithPage(db.handle, keyHash, { limit: 21, after }))?.rows).toEqual(all.slice(2));
    expect(await findActiveKeyWithPage(db.handle, empty.keyHash, { limit: 21 })).toMatchObject({ key: { sellerId: empty.sellerId }, rows: [] });
    expect(await findActiveKeyWithPage(db.handle, createHash('sha256').update('unknown').digest('hex'), { limit: 21 })).toBeUndefined();
  });
});
