import { errors } from '../errors/registry.js';
import type { MemoryCustomerStore } from '../store/memory-store.js';
import type { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import type { SellerContext, TestDataWipe } from '../types.js';
import { tenantOf } from './tenant.js';

/**
 * What the one-call wipe needs from storage: the seller's test customers, test endpoints (their deliveries with
 * them), test events and test idempotency records deleted in one step, live data untouched, no event sent.
 */
export interface TestDataStore {
  wipeTestData(sellerId: string): Promise<TestDataWipe>;
}

/**
 * The wipe's rule: only a test key may call it (a live key is 403 naming the operation); then the store's step.
 *
 * @example
 * const wiped = await wipeTestData(seller, store); // { customers: 12, webhook_endpoints: 1, events: 30 }
 */
export async function wipeTestData(seller: SellerContext, store: TestDataStore): Promise<TestDataWipe> {
  if (tenantOf(seller).mode !== 'test') throw errors.testKeyRequired('deleteTestData');
  return store.wipeTestData(seller.sellerId);
}

/**
 * The wipe over core's memory stores (the mocks').
 *
 * @example
 * const testData = memoryTestData(customers, webhooks);
 */
export function memoryTestData(customers: MemoryCustomerStore, webhooks: MemoryWebhookStore): TestDataStore {
  return {
    async wipeTestData(sellerId) {
      // Endpoints first, as the server does: the customers' removal is no change any endpoint hears of.
      const { endpoints, events } = webhooks.wipeTestData(sellerId);
      return { customers: customers.wipeTestData(sellerId), webhook_endpoints: endpoints, events };
    },
  };
}
