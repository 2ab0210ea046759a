import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { sampleCustomer } from '../testing/store-contract.js';
import type { CustomerEvent } from '../types.js';
import { createMockEvents } from './mock-events.js';
import { live } from '../testing/tenants.js';

const seller = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => vi.restoreAllMocks());

describe('createMockEvents', () => {
  it("turns the store's changes into the spec's events, in order, for every listener until it unsubscribes", async () => {
    const store = new MemoryCustomerStore();
    const events = createMockEvents(store);
    const first: CustomerEvent[] = [];
    const second: CustomerEvent[] = [];
    const stopFirst = events.onEvent((event) => first.push(event));
    events.onEvent((event) => second.push(event));
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, { customerLimit: 10 });
    await store.updateCustomer(live(seller), ada.id, { status: 'suspended' }, '2030-01-01T00:00:00.000Z');
    await settle();
    stopFirst();
    await store.deleteCustomer(live(seller), ada.id);
    await settle();

    expect(first.map((event) => [event.type, event.data.sequence])).toEqual([['customer.created', 1], ['customer.updated', 2]]);
    expect(second.map((event) => event.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
    expect(second[1]).toMatchObject({ data: { changed_fields: ['status'], customer: { status: 'suspended' } } });
    expect(second[2]!.data.customer).toEqual({ id: ada.id, seller_id: seller });
    second[0]!.data.sequence = 99; // each listener has its own copy
    expect(first[0]!.data.sequence).toBe(1);
  });

  it('emits nothing for customers inserted through quietStore, and the events of their later changes', async () => {
    const store = new MemoryCustomerStore();
    const events = createMockEvents(store);
    const heard: CustomerEvent[] = [];
    events.onEvent((event) => heard.push(event));
    const seeded = sampleCustomer(seller);
    expect((await events.quietStore.insertCustomer(seeded, { customerLimit: 10 })).kind).toBe('created');
    // A refused quiet insert leaves no mark behind.
    const taken = { ...sampleCustomer(seller), email: seeded.email };
    expect((await events.quietStore.insertCustomer(taken, { customerLimit: 10 })).kind).toBe('email_taken');
    await store.updateCustomer(live(seller), seeded.id, { language: 'en' }, '2030-01-01T00:00:00.000Z');
    await store.insertCustomer({ ...taken, email: 'other@example.com' }, { customerLimit: 10 });
    await settle();
    expect(heard.map((event) => [event.type, event.data.sequence])).toEqual([['customer.updated', 2], ['customer.created', 1]]);
    expect(store.changes(seller)).toHaveLength(3); // the store's own record keeps the seed's change
  });

  it('builds no events while nobody listens, and quiet inserts then leave nothing to forget', async () => {
    const store = new MemoryCustomerStore();
    const onChange = vi.spyOn(store, 'onChange');
    const events = createMockEvents(store);
    await events.quietStore.insertCustomer(sampleCustomer(seller), { customerLimit: 10 });
    expect(onChange).not.toHaveBeenCalled();
    const heard: string[] = [];
    const stop = events.onEvent((event) => heard.push(event.type));
    await store.insertCustomer(sampleCustomer(seller), { customerLimit: 10 });
    await settle();
    stop();
    expect(heard).toEqual(['customer.created']);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('reports a throwing listener as uncaught and still tells the others', async () => {
    const store = new MemoryCustomerStore();
    const events = createMockEvents(store);
    const uncaught: unknown[] = [];
    const catcher = (error: unknown) => uncaught.push(error);
    // vitest's own handler would fail this test; this one takes the error instead, for the time of the test.
    const saved = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', catcher);
    try {
      const heard: string[] = [];
      events.onEvent(() => {
        throw new Error('listener bug');
      });
      events.onEvent((event) => heard.push(event.type));
      await store.insertCustomer(sampleCustomer(seller), { customerLimit: 10 });
      await settle();
      expect(heard).toEqual(['customer.created']);
      expect(uncaught).toEqual([new Error('listener bug')]);
    } finally {
      process.off('uncaughtException', catcher);
      for (const listener of saved) process.on('uncaughtException', listener);
    }
  });
});
