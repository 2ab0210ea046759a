import { describeWebhookStoreContract } from '../testing/webhook-store-contract.js';
import { MemoryCustomerStore } from './memory-store.js';
import { MemoryWebhookStore } from './memory-webhook-store.js';

let webhooks: MemoryWebhookStore;

describeWebhookStoreContract('MemoryWebhookStore', {
  async open() {
    const customers = new MemoryCustomerStore();
    webhooks = new MemoryWebhookStore(customers);
    return { customers, webhooks };
  },
  newSeller: async () => globalThis.crypto.randomUUID(),
  // The memory store hears of a change in a microtask after the write answered.
  settle: () => new Promise((resolve) => setTimeout(resolve, 0)),
  async setDeliveryState(sellerId, eventId, endpointId, state) {
    if (!webhooks.setDeliveryState(sellerId, eventId, endpointId, state, new Date().toISOString())) throw new Error('no such delivery');
  },
});
