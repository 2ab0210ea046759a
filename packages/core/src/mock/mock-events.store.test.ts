import { describe, expect, it, vi } from 'vitest';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { sampleCustomer } from '../testing/store-contract.js';
import type { CustomerEvent } from '../types.js';
import { createMockEvents } from './mock-events.js';
import { live } from '../testing/tenants.js';

const seller = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const roomy = { customerLimit: 10 };

describe('createMockEvents', () => {
  it('quietStore reads and writes the same store', async () => {
    const store = new MemoryCustomerStore();
    const { quietStore } = createMockEvents(store);
    const ada = sampleCustomer(seller);
    await quietStore.insertCustomer(ada, roomy);
    expect(await quietStore.findCustomer(live(seller), ada.id)).toEqual(ada);
    const updated = await quietStore.updateCustomer(live(seller), ada.id, { status: 'suspended' }, '2030-01-01T00:00:00.000Z');
    expect(updated).toMatchObject({ kind: 'updated', customer: { status: 'suspended' } });
    expect(await store.findCustomer(live(seller), ada.id)).toMatchObject({ status: 'suspended' });
    expect((await quietStore.listCustomers(live(seller), { limit: 10 })).map((c) => c.id)).toEqual([ada.id]);
    expect(await quietStore.deleteCustomer(live(seller), ada.id)).toBe(true);
    expect(store.countCustomers(seller)).toBe(0);
  });

  it('subscribes to the store while someone listens, and only then', async () => {
    const store = new MemoryCustomerStore();
    const unsubscribes: Array<ReturnType<typeof vi.fn>> = [];
    const onChange = vi.spyOn(store, 'onChange').mockImplementation(function (this: MemoryCustomerStore, listener) {
      const stop = vi.fn(MemoryCustomerStore.prototype.onChange.call(store, listener));
      unsubscribes.push(stop);
      return stop;
    });
    const events = createMockEvents(store);
    const stopFirst = events.onEvent(() => {});
    const stopSecond = events.onEvent(() => {});
    expect(onChange).toHaveBeenCalledTimes(1);
    stopFirst();
    expect(unsubscribes[0]).not.toHaveBeenCalled();
    stopSecond();
    expect(unsubscribes[0]).toHaveBeenCalledTimes(1);
    const heard: string[] = [];
    events.onEvent((event) => heard.push(event.type));
    expect(onChange).toHaveBeenCalledTimes(2);
    await store.insertCustomer(sampleCustomer(seller), roomy);
    await settle();
    expect(heard).toEqual(['customer.created']);
  });

  it('a customer inserted quietly while nobody listened is heard when created again later', async () => {
    const store = new MemoryCustomerStore();
    const events = createMockEvents(store);
    const ada = sampleCustomer(seller);
    await events.quietStore.insertCustomer(ada, roomy);
    const heard: CustomerEvent[] = [];
    events.onEvent((event) => heard.push(event));
    await store.deleteCustomer(live(seller), ada.id);
    await store.insertCustomer(ada, roomy);
    await settle();
    expect(heard.map((event) => [event.type, event.data.customer.id])).toEqual([
      ['customer.deleted', ada.id],
      ['customer.created', ada.id],
    ]);
  });

  it("a refused quiet insert of a known customer does not swallow that customer's own change", async () => {
    const store = new MemoryCustomerStore();
    const events = createMockEvents(store);
    const heard: string[] = [];
    events.onEvent((event) => heard.push(event.type));
    const ada = sampleCustomer(seller);
    await store.insertCustomer(ada, roomy);
    await settle();
    // The update's event is still on its way while the quiet insert (same id and email) is refused.
    const update = store.updateCustomer(live(seller), ada.id, { language: 'en' }, '2030-01-01T00:00:00.000Z');
    expect((await events.quietStore.insertCustomer(ada, roomy)).kind).toBe('email_taken');
    await update;
    await settle();
    expect(heard).toEqual(['customer.created', 'customer.updated']);
  });
});
