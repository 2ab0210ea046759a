import { customerEvent, type CustomerChange } from '../events/customer-change.js';
import type { CustomerStore, InsertOptions, InsertResult } from '../store.js';
import type { MemoryCustomerStore } from '../store/memory-store.js';
import type { Customer, CustomerEvent } from '../types.js';

/** Called with each change event of the mock, in the order of the changes. */
export type CustomerEventListener = (event: CustomerEvent) => void;

/** The mock's change events: its store's changes as the events the API delivers, minus seeding. */
export interface MockEvents {
  /** Calls `listener` with the event of every later acknowledged change; returns the unsubscribe. */
  onEvent(listener: CustomerEventListener): () => void;
  /** `store` as seen by seeding: the same store, but the customers it inserts emit no event. */
  quietStore: CustomerStore;
}

/**
 * Turns a memory store's changes into events for the mock's listeners. Seeds describe a state, not a change
 * a client made, so customers inserted through {@link MockEvents.quietStore} (seeds and `reset()`) emit none.
 * The store is only subscribed while someone listens: a mock without listeners builds no events.
 *
 * @example
 * const events = createMockEvents(store);
 * const stop = events.onEvent((event) => console.log(event.type, event.data.sequence));
 */
export function createMockEvents(store: MemoryCustomerStore): MockEvents {
  const listeners = new Set<CustomerEventListener>();
  /** Ids of customers being inserted quietly while subscribed; their `customer.created` is dropped. */
  const quiet = new Set<string>();
  let unsubscribe: (() => void) | undefined;

  function emit(change: CustomerChange): void {
    if (change.type === 'customer.created' && quiet.delete(change.customerId)) return;
    if (listeners.size === 0) return;
    const event = customerEvent(change);
    for (const listener of [...listeners]) {
      try {
        // Each listener gets its own copy: one that edits the event cannot change what the next one sees.
        listener(listeners.size === 1 ? event : structuredClone(event));
      } catch (error) {
        // Reported as uncaught (the test runner fails the test) without keeping the other listeners from it.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  async function insertQuietly(customer: Customer, options: InsertOptions): Promise<InsertResult> {
    // The store tells its listeners of a change only once the insert has answered, so marking first is in time.
    if (unsubscribe) quiet.add(customer.id);
    const result = await store.insertCustomer(customer, options);
    // Stryker disable next-line StringLiteral: after a create the mark is already gone (emit, queued inside the insert, runs before this await resumes)
    if (result.kind !== 'created') quiet.delete(customer.id);
    return result;
  }

  return {
    onEvent(listener) {
      unsubscribe ??= store.onChange(emit);
      const entry: CustomerEventListener = (event) => listener(event); // the same function twice is two listeners
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
        if (listeners.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = undefined;
        }
      };
    },
    quietStore: {
      findCustomer: (sellerId, id) => store.findCustomer(sellerId, id),
      insertCustomer: insertQuietly,
      updateCustomer: (sellerId, id, changes, updatedAt) => store.updateCustomer(sellerId, id, changes, updatedAt),
      deleteCustomer: (sellerId, id) => store.deleteCustomer(sellerId, id),
      listCustomers: (sellerId, page) => store.listCustomers(sellerId, page),
    },
  };
}
