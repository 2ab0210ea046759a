import { expect, it } from 'vitest';
import { buildCustomer } from '../customers/build-customer.js';
import { MemoryCustomerStore } from './memory-store.js';
import { live } from '../testing/tenants.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const unknownId = '00000000-0000-4000-8000-000000000000';
const customer = buildCustomer(
  { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  { id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', sellerId, createdAt: '2026-11-25T09:30:00.000Z' },
);

async function storeWithAda(): Promise<MemoryCustomerStore> {
  const store = new MemoryCustomerStore();
  await store.insertCustomer(customer, { customerLimit: 5 });
  return store;
}

it('answers not_found to an update of an unknown id for a seller who has customers, and stores nothing', async () => {
  const store = await storeWithAda();
  expect(await store.updateCustomer(live(sellerId), unknownId, { first_name: 'X' }, '2026-11-25T10:00:00.000Z')).toEqual({ kind: 'not_found' });
  expect(store.countCustomers(sellerId)).toBe(1);
  expect(await store.findCustomer(live(sellerId), unknownId)).toBeUndefined();
});

it('answers false to a delete of an unknown id for a seller who has customers, and keeps theirs', async () => {
  const store = await storeWithAda();
  expect(await store.deleteCustomer(live(sellerId), unknownId)).toBe(false);
  expect(store.countCustomers(sellerId)).toBe(1);
  expect((await store.insertCustomer({ ...customer, id: unknownId }, { customerLimit: 5 })).kind).toBe('email_taken');
});
