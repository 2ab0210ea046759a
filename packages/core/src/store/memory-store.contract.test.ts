import { describeOutboxContract } from '../testing/outbox-contract.js';
import { describeStoreContract } from '../testing/store-contract.js';
import { MemoryCustomerStore } from './memory-store.js';

const store = new MemoryCustomerStore();
const harness = {
  open: async () => store,
  // One process's memory: the second "store" is the same one.
  another: async () => store,
  newSeller: async () => globalThis.crypto.randomUUID(),
  countCustomers: async (sellerId: string) => store.countCustomers(sellerId),
  changes: async (sellerId: string) => store.changes(sellerId),
};
describeStoreContract('MemoryCustomerStore', harness);
describeOutboxContract('MemoryCustomerStore', harness);
