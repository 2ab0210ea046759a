import { describe, expect, it } from 'vitest';
import { buildCustomer } from '../customers/build-customer.js';
import { MemoryCustomerStore } from './memory-store.js';

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
    const found = await store.findCustomer(sellerId, customer.id);
    expect(found?.address_data).toEqual({ city: 'London' });
    found!.first_name = 'Changed';
    expect((await store.findCustomer(sellerId, customer.id))?.first_name).toBe('Ada');
  });

  it('scopes every method to the seller', async () => {
    const store = new MemoryCustomerStore();
    await store.insertCustomer(customer, { customerLimit: 5 });
    const stranger = '11111111-2222-4333-8444-555555555555';
    expect(await store.findCustomer(stranger, customer.id)).toBeUndefined();
    expect(await store.updateCustomer(stranger, customer.id, { status: 'inactive' }, 'x')).toEqual({
      kind: 'not_found',
    });
    expect(await store.deleteCustomer(stranger, customer.id)).toBe(false);
    expect(await store.findCustomer(sellerId, customer.id)).toEqual(customer);
  });

  it('clear() forgets customers and idempotency records', async () => {
    const store = new MemoryCustomerStore();
    const idempotency = { key: 'k', fingerprint: 'f', expiresAt: '2026-11-26T09:30:00.000Z' };
    await store.insertCustomer(customer, { customerLimit: 5, idempotency });
    store.clear();
    expect(store.countCustomers(sellerId)).toBe(0);
    expect((await store.insertCustomer(customer, { customerLimit: 5, idempotency })).kind).toBe('created');
  });

  it('keeps emails unique per seller, case-insensitively, and frees an email on delete or change', async () => {
    const store = new MemoryCustomerStore();
    const roomy = { customerLimit: 10 };
    const other = (id: string, email: string, seller = sellerId) =>
      buildCustomer({ first_name: 'B', last_name: 'C', email }, { id, sellerId: seller, createdAt: customer.created_at });
    await store.insertCustomer(customer, roomy);
    const second = other('aaaaaaaa-0000-4000-8000-000000000002', 'grace@example.com');
    expect((await store.insertCustomer(other('aaaaaaaa-0000-4000-8000-000000000001', 'ADA@Example.COM'), roomy)).kind).toBe(
      'email_taken',
    );
    expect((await store.insertCustomer(second, roomy)).kind).toBe('created');
    // Another seller may use the same address.
    const stranger = '11111111-2222-4333-8444-555555555555';
    expect((await store.insertCustomer(other('aaaaaaaa-0000-4000-8000-000000000003', 'ada@example.com', stranger), roomy)).kind).toBe(
      'created',
    );
    expect((await store.updateCustomer(sellerId, second.id, { email: 'Ada@example.com' }, 'x')).kind).toBe('email_taken');
    // A customer keeps its own address under another spelling.
    expect((await store.updateCustomer(sellerId, customer.id, { email: 'ADA@example.com' }, 'x')).kind).toBe('updated');
    // Changing the address frees the old one; deleting frees the current one.
    expect((await store.updateCustomer(sellerId, customer.id, { email: 'lovelace@example.com' }, 'x')).kind).toBe('updated');
    expect((await store.updateCustomer(sellerId, second.id, { email: 'ada@example.com' }, 'x')).kind).toBe('updated');
    expect(await store.deleteCustomer(sellerId, customer.id)).toBe(true);
    expect((await store.insertCustomer(other('aaaaaaaa-0000-4000-8000-000000000004', 'lovelace@example.com'), roomy)).kind).toBe(
      'created',
    );
  });
});
