import { expect, it, vi } from 'vitest';
import { customerEvent } from '../events/customer-change.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { sampleCustomer } from '../testing/store-contract.js';
import { createMockEvents } from './mock-events.js';

// Counts the events built, to see that a mock nobody listens to builds none.
vi.mock('../events/customer-change.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../events/customer-change.js')>();
  return { ...actual, customerEvent: vi.fn(actual.customerEvent) };
});

const seller = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

it('builds no event for a change whose listener left before it was told', async () => {
  const store = new MemoryCustomerStore();
  const events = createMockEvents(store);
  const stop = events.onEvent(() => {});
  await store.insertCustomer(sampleCustomer(seller), { customerLimit: 10 });
  await settle();
  expect(customerEvent).toHaveBeenCalledTimes(1);
  // The store tells its listeners in a microtask after the write: the only listener is gone by then.
  const write = store.insertCustomer(sampleCustomer(seller), { customerLimit: 10 });
  stop();
  await write;
  await settle();
  expect(customerEvent).toHaveBeenCalledTimes(1);
});
