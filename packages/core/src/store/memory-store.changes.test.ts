import { describe, expect, it } from 'vitest';
import type { CustomerChange } from '../events/customer-change.js';
import { sampleCustomer } from '../testing/store-contract.js';
import { MemoryCustomerStore } from './memory-store.js';
import { live } from '../testing/tenants.js';

describe('MemoryCustomerStore change listeners', () => {
  it('tells listeners of each change after the write has answered, until they unsubscribe', async () => {
    const store = new MemoryCustomerStore();
    const heard: CustomerChange[] = [];
    const stop = store.onChange((change) => heard.push(change));
    const seller = globalThis.crypto.randomUUID();
    const customer = sampleCustomer(seller);
    const insert = store.insertCustomer(customer, { customerLimit: 10 });
    expect(heard).toEqual([]); // not inside the write
    await insert;
    await Promise.resolve();
    expect(heard.map((change) => [change.type, change.sequence])).toEqual([['customer.created', 1]]);
    heard[0]!.customer.first_name = 'changed by a listener';
    expect((await store.findCustomer(live(seller), customer.id))?.first_name).toBe('Ada');

    stop();
    await store.deleteCustomer(live(seller), customer.id);
    await Promise.resolve();
    expect(heard).toHaveLength(1);
    expect(store.changes(seller).map((change) => change.type)).toEqual(['customer.created', 'customer.deleted']);
  });

  it('forgets changes and sequences on clear', async () => {
    const store = new MemoryCustomerStore();
    const seller = globalThis.crypto.randomUUID();
    const customer = sampleCustomer(seller);
    await store.insertCustomer(customer, { customerLimit: 10 });
    store.clear();
    expect(store.changes()).toEqual([]);
    await store.insertCustomer(customer, { customerLimit: 10 });
    expect(store.changes(seller).map((change) => change.sequence)).toEqual([1]);
  });
});
