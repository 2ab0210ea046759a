import { beforeAll, describe, expect, it } from 'vitest';
import { type CustomerChange, isEventId } from '../events/customer-change.js';
import type { CustomerStore } from '../store.js';
import { sampleCustomer, type StoreHarness } from './store-contract.js';
import { live } from './tenants.js';

/**
 * A store harness that can also read the store's outbox. A store may skip recording the changes nobody can
 * receive (the server records only for sellers with a subscribed endpoint); its `newSeller` then gives a seller
 * subscribed to every event type.
 */
export interface OutboxHarness extends StoreHarness {
  /** The seller's recorded changes, oldest first (in the order of their per-customer sequence). */
  changes(sellerId: string): Promise<CustomerChange[]>;
}

const roomy = { customerLimit: 1000 };
const later = (iso: string, ms = 1) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * The one statement of the outbox rule every {@link CustomerStore} keeps: each successful create, update and
 * delete records exactly one change (with the customer's next sequence number) together with the write, and a
 * refused write records none. How a store does it (a trigger, a statement in the transaction, a list in memory)
 * is its own business.
 *
 * @example
 * describeOutboxContract('MemoryCustomerStore', { ...memoryHarness, changes: async (id) => store.changes(id) });
 */
export function describeOutboxContract(name: string, harness: OutboxHarness): void {
  describe(`${name}: the outbox contract`, () => {
    let store: CustomerStore;
    beforeAll(async () => {
      store = await harness.open();
    });

    it('records created, updated and deleted with sequences 1, 2, 3 and the customer of each', async () => {
      const seller = await harness.newSeller();
      const ada = sampleCustomer(seller);
      await store.insertCustomer(ada, roomy);
      const updatedAt = later(ada.updated_at);
      const result = await store.updateCustomer(live(seller), ada.id, { status: 'suspended' }, updatedAt);
      expect(result.kind).toBe('updated');
      const suspended = { ...ada, status: 'suspended' as const, updated_at: updatedAt };
      expect(await store.deleteCustomer(live(seller), ada.id)).toBe(true);

      const changes = await harness.changes(seller);
      expect(changes.map(({ type, sequence, customerId, sellerId }) => ({ type, sequence, customerId, sellerId }))).toEqual([
        { type: 'customer.created', sequence: 1, customerId: ada.id, sellerId: seller },
        { type: 'customer.updated', sequence: 2, customerId: ada.id, sellerId: seller },
        { type: 'customer.deleted', sequence: 3, customerId: ada.id, sellerId: seller },
      ]);
      const [created, updated, deleted] = changes as [CustomerChange, CustomerChange, CustomerChange];
      expect(created.customer).toEqual(ada);
      expect(created.occurredAt).toBe(ada.updated_at);
      expect(updated.customer).toEqual(suspended);
      expect(updated.previous).toEqual(ada);
      expect(updated.occurredAt).toBe(updatedAt);
      expect(deleted.customer).toEqual(suspended);
      expect(deleted.occurredAt >= updatedAt).toBe(true);
      expect(changes.every((change) => isEventId(change.eventId))).toBe(true);
      expect(new Set(changes.map((change) => change.eventId)).size).toBe(3);
    });

    it('records nothing for refused writes: taken email, full plan, replay, unknown id', async () => {
      const seller = await harness.newSeller();
      const ada = sampleCustomer(seller);
      const idempotency = { key: 'k-1', fingerprint: 'f', expiresAt: later(ada.created_at, 86_400_000) };
      await store.insertCustomer(ada, { ...roomy, idempotency });
      const before = await harness.changes(seller);
      expect(before).toHaveLength(1);

      expect((await store.insertCustomer(sampleCustomer(seller, { email: ada.email }), roomy)).kind).toBe('email_taken');
      expect((await store.insertCustomer(sampleCustomer(seller), { customerLimit: 1 })).kind).toBe('limit_reached');
      const replay = await store.insertCustomer(sampleCustomer(seller), { ...roomy, idempotency });
      expect(replay.kind).toBe('idempotent_replay');
      const other = sampleCustomer(seller);
      await store.insertCustomer(other, roomy);
      const taken = await store.updateCustomer(live(seller), other.id, { email: ada.email }, later(other.updated_at));
      expect(taken.kind).toBe('email_taken');
      const missing = globalThis.crypto.randomUUID();
      expect((await store.updateCustomer(live(seller), missing, { status: 'inactive' }, later(ada.updated_at))).kind).toBe('not_found');
      expect(await store.deleteCustomer(live(seller), missing)).toBe(false);

      const after = await harness.changes(seller);
      expect(after.map((change) => [change.type, change.customerId])).toEqual([
        ['customer.created', ada.id],
        ['customer.created', other.id],
      ]);
    });

    it('keeps each seller’s changes to that seller', async () => {
      const [a, b] = [await harness.newSeller(), await harness.newSeller()];
      const customer = sampleCustomer(a);
      await store.insertCustomer(customer, roomy);
      expect(await harness.changes(b)).toEqual([]);
      expect((await store.updateCustomer(live(b), customer.id, { status: 'inactive' }, later(customer.updated_at))).kind).toBe(
        'not_found',
      );
      expect(await store.deleteCustomer(live(b), customer.id)).toBe(false);
      expect((await harness.changes(a)).map((change) => change.type)).toEqual(['customer.created']);
    });

    it('gives concurrent updates of one customer, from two stores, consecutive sequences', async () => {
      const seller = await harness.newSeller();
      const customer = sampleCustomer(seller);
      await store.insertCustomer(customer, roomy);
      const second = await harness.another();
      const updates = 10;
      const results = await Promise.all(
        Array.from({ length: updates }, (_, i) =>
          (i % 2 ? second : store).updateCustomer(
            live(seller),
            customer.id,
            { first_name: `Name ${i}` },
            later(customer.updated_at, i + 1),
          ),
        ),
      );
      expect(results.every((result) => result.kind === 'updated')).toBe(true);
      const sequences = (await harness.changes(seller)).map((change) => change.sequence).sort((x, y) => x - y);
      expect(sequences).toEqual(Array.from({ length: updates + 1 }, (_, i) => i + 1));
    });
  });
}
