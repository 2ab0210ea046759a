import { describeStoreContract } from '../testing/store-contract.js';
import { MemoryCustomerStore } from './memory-store.js';

const store = new MemoryCustomerStore();
describeStoreContract('MemoryCustomerStore', {
  open: async () => store,
  // One process's memory: the second "store" is the same one.
  another: async () => store,
  newSeller: async () => globalThis.crypto.randomUUID(),
  countCustomers: async (sellerId) => store.countCustomers(sellerId),
});
