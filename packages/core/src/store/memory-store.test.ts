import { describe, expect, it } from 'vitest';
import { buildCustomer } from '../customers/build-customer.js';
import { MemoryCustomerStore } from './memory-store.js';
import { live } from '../testing/tenants.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const customer = buildCustomer(
  { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', address_data: { city: 'London' } },
  { id: '3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', sellerId, createdAt: '2026-11-25T09:30:00.000Z' },
);

describe('MemoryCustomerStore', () => {
  it('hands out copies, so callers cannot change stored records', async () => {
    const store = new MemoryCustomerStore();
    const mine = structuredClone(customer);
    const inserted = await store.insertCustomer(mine, { customerLimit: 5 });
    if (inserted.kind !== 'created') throw new Error(inserted.kind);
    inserted.customer.address_data!.city = 'Paris';
    mine.address_data!.city = 'Rome';
    const found = await store.findCustomer(live(sellerId), customer.id);
    expect(found?.address_data).toEqual({ city: 'London' });
    found!.first_name = 'Changed';
    expect((await store.findCustomer(live(sellerId), customer.id))?.first_name).toBe('Ada');
  });

  it('clear() forgets customers and idempotency records', async () => {
    const store = new MemoryCustomerStore();
    const idempotency = { key: 'k', fingerprint: 'f', expiresAt: '2026-11-26T09:30:00.000Z' };
    await store.insertCustomer(customer, { customerLimit: 5, idempotency });
    store.clear();
    expect(store.countCustomers(sellerId)).toBe(0);
    expect((await store.insertCustomer(customer, { customerLimit: 5, idempotency })).kind).toBe('created');
  });
});
