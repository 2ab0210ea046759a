import { expect, it } from 'vitest';
import { buildCustomer } from '../customers/build-customer.js';
import { MemoryCustomerStore } from './memory-store.js';
import { live } from '../testing/tenants.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const AT = '2026-11-25T09:30:00.000Z';
const at = (createdAt: string, id: string, email: string) =>
  buildCustomer({ first_name: 'A', last_name: 'B', email }, { id, sellerId, createdAt });

it('lists newest first, customers created in the same millisecond by id descending, at most `limit` of them', async () => {
  const store = new MemoryCustomerStore();
  const ids = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000c', '00000000-0000-4000-8000-00000000000b'];
  for (const [i, id] of ids.entries()) await store.insertCustomer(at(AT, id, `same${i}@example.com`), { customerLimit: 10 });
  await store.insertCustomer(at('2026-11-25T09:31:00.000Z', '00000000-0000-4000-8000-000000000001', 'newer@example.com'), { customerLimit: 10 });
  const page = await store.listCustomers(live(sellerId), { limit: 10 });
  expect(page.map((c) => c.id.slice(-1))).toEqual(['1', 'c', 'b', 'a']);
  expect((await store.listCustomers(live(sellerId), { limit: 2 })).map((c) => c.id.slice(-1))).toEqual(['1', 'c']);
});

it('lists newest first whatever order the customers were stored in', async () => {
  const store = new MemoryCustomerStore();
  const times = ['2026-11-25T09:31:00.000Z', '2026-11-25T09:30:00.000Z', '2026-11-25T09:32:00.000Z', '2026-11-25T09:29:00.000Z'];
  for (const [i, createdAt] of times.entries()) {
    await store.insertCustomer(at(createdAt, `00000000-0000-4000-8000-00000000000${i}`, `c${i}@example.com`), { customerLimit: 10 });
  }
  const page = await store.listCustomers(live(sellerId), { limit: 10 });
  expect(page.map((c) => c.created_at)).toEqual([...times].sort().reverse());
});
