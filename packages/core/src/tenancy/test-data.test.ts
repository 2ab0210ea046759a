import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { createApiHandler } from '../http/api-handler.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import { createWebhookService } from '../webhooks/webhook-service.js';
import { memoryTestData } from './test-data.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';

// The wipe as the mocks host it (core's handler over the memory stores): a live key is refused, a test key wipes
// the test data and nothing of live.
describe('deleteTestData over the memory stores', () => {
  it('wipes test data only, and only for a test key', async () => {
    const keys = new MemoryKeyRegistry();
    const live = generateApiKey({ kind: 'secret', mode: 'live' });
    const test = generateApiKey({ kind: 'secret', mode: 'test' });
    await keys.add(live, { sellerId, customerLimit: 10 });
    await keys.add(test, { sellerId, customerLimit: 10 });
    const store = new MemoryCustomerStore();
    const webhookStore = new MemoryWebhookStore(store);
    const handle = createApiHandler({
      service: createCustomerService({ store }),
      webhooks: createWebhookService({ store: webhookStore }),
      testData: memoryTestData(store, webhookStore),
      lookupKey: keys.lookup,
    });
    const send = async (method: string, path: string, key: string, body?: unknown) => {
      const h = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
      const answer = await handle({ method, path, header: (name) => h.get(name), body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)) });
      await new Promise((resolve) => setTimeout(resolve, 0));
      return answer;
    };
    for (const key of [live, test]) {
      expect((await send('POST', '/api/webhook_endpoints', key, { url: 'https://hooks.example.com/a' })).status).toBe(201);
      const created = await send('POST', '/api/customers', key, { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' });
      expect(created.body).toMatchObject({ livemode: key === live });
    }

    const refused = await send('DELETE', '/api/test_data', live);
    expect(refused).toMatchObject({ status: 403, body: { error: 'Forbidden', message: 'deleteTestData needs a test key (sk_test_ or rk_test_); this key is live' } });
    const wiped = await send('DELETE', '/api/test_data', test);
    expect(wiped).toMatchObject({ status: 200, body: { customers: 1, webhook_endpoints: 1, events: 1 } });
    expect(store.countCustomers(sellerId, 'test')).toBe(0);
    expect(store.countCustomers(sellerId, 'live')).toBe(1);
    expect((await send('GET', '/api/webhook_endpoints', test)).body).toMatchObject({ data: [] });
    expect((await send('GET', '/api/events', test)).body).toMatchObject({ data: [] });
    expect((await send('GET', '/api/webhook_endpoints', live)).body).toMatchObject({ data: [{ url: 'https://hooks.example.com/a' }] });
    expect((await send('GET', '/api/events', live)).body).toMatchObject({ data: [{ type: 'customer.created', livemode: true }] });
    // The test email is free again in test mode.
    expect((await send('POST', '/api/customers', test, { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' })).status).toBe(201);
  });
});
