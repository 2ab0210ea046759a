import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleCustomer } from '../testing/store-contract.js';
import { MemoryCustomerStore } from './memory-store.js';
import { live } from '../testing/tenants.js';

const sellerA = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const sellerB = '1c0d9e8f-7a6b-4c5d-8e4f-3a2b1c0d9e8f';

describe('MemoryCustomerStore.changes', () => {
  it("lists every seller's changes, oldest first, without a seller; a new store has none", async () => {
    const store = new MemoryCustomerStore();
    expect(store.changes()).toEqual([]);
    const a = sampleCustomer(sellerA);
    const b = sampleCustomer(sellerB);
    await store.insertCustomer(a, { customerLimit: 10 });
    await store.insertCustomer(b, { customerLimit: 10 });
    await store.deleteCustomer(live(sellerA), a.id);
    expect(store.changes().map((c) => [c.sellerId, c.type])).toEqual([
      [sellerA, 'customer.created'],
      [sellerB, 'customer.created'],
      [sellerA, 'customer.deleted'],
    ]);
    expect(store.changes(sellerB).map((c) => c.customerId)).toEqual([b.id]);
  });

  it('keeps the newest 10,000 changes', async () => {
    const store = new MemoryCustomerStore();
    const customer = sampleCustomer(sellerA, { updated_at: '2026-11-25T09:30:00.000Z' });
    await store.insertCustomer(customer, { customerLimit: 10 });
    for (let i = 0; i < 10_000; i++) {
      await store.updateCustomer(live(sellerA), customer.id, { first_name: `Ada ${i}` }, '2026-11-25T09:31:00.000Z');
    }
    const kept = store.changes();
    expect(kept).toHaveLength(10_000);
    // The create (sequence 1) is the one dropped; the last update is the newest kept.
    expect([kept[0]!.sequence, kept.at(-1)!.sequence]).toEqual([2, 10_001]);
    expect(kept.at(-1)!.customer.first_name).toBe('Ada 9999');
  });
});

describe('MemoryCustomerStore delete changes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("are stamped with the time of the delete, but never before the customer's last change", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00.000Z'));
    const store = new MemoryCustomerStore();
    const old = sampleCustomer(sellerA, { created_at: '2026-11-25T09:30:00.000Z', updated_at: '2026-11-25T09:30:00.000Z' });
    // Changed "later" than now: the wall clock has stepped back since.
    const ahead = sampleCustomer(sellerA, { created_at: '2026-11-25T09:30:00.000Z', updated_at: '2031-06-01T12:00:00.000Z' });
    for (const customer of [old, ahead]) {
      await store.insertCustomer(customer, { customerLimit: 10 });
      await store.deleteCustomer(live(sellerA), customer.id);
    }
    const deletes = store.changes(sellerA).filter((c) => c.type === 'customer.deleted');
    expect(deletes.map((c) => [c.customerId, c.occurredAt])).toEqual([
      [old.id, '2030-01-01T00:00:00.000Z'],
      [ahead.id, '2031-06-01T12:00:00.000Z'],
    ]);
  });
});
