import { sampleCustomer as customer } from '@customers-api/core/testing';
import { describe, expect, it } from 'vitest';
import { newTestSeller as newSeller } from '../test/sellers-and-endpoints.js';
import { useTestDatabase } from '../test/test-database.js';
import { customerToRow } from './rows.js';
import { SqlCustomerStore } from './sql-customer-store.js';
import { writeTransaction } from './write-transaction.js';

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
      return Promise.race([store.listCustomers(sellerId, { limit: 21 }), nextTurn]);
    });
    expect(seen).toEqual([committed]);
    expect((await store.listCustomers(sellerId, { limit: 21 })).map((c) => c.email)).toEqual(['open@example.com', 'committed@example.com']);
  });
});
