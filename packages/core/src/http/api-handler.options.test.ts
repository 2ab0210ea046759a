import { beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { createApiHandler, type ApiHandlerOptions } from './api-handler.js';
import type { ApiRequest, ApiResponse } from './types.js';

// The handler's options and the parts of a request it passes on, each stated once.
const seller = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 };
const key = generateApiKey();
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

let keys: MemoryKeyRegistry;
let store: MemoryCustomerStore;
beforeEach(async () => {
  keys = new MemoryKeyRegistry();
  await keys.add(key, seller);
  store = new MemoryCustomerStore();
});

function handler(options: Partial<ApiHandlerOptions> = {}) {
  return createApiHandler({ service: createCustomerService({ store }), lookupKey: keys.lookup, ...options });
}

function request(method: string, path: string, extra: Partial<ApiRequest> = {}): ApiRequest {
  const headers = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
  return { method, path, header: (name) => headers.get(name), body: null, ...extra };
}

const post = (body: unknown) => request('POST', '/api/customers', { body: new TextEncoder().encode(JSON.stringify(body)) });

describe('createApiHandler', () => {
  it('hands the query string to the list, and lists with the defaults without one', async () => {
    const handle = handler();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect((await handle(post({ ...ada, email }))).status).toBe(201);
    }
    const page = (await handle(request('GET', '/api/customers', { query: 'limit=1' }))).body as { data: unknown[]; has_more: boolean };
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);
    const all = (await handle(request('GET', '/api/customers'))).body as { data: unknown[]; has_more: boolean };
    expect(all.data).toHaveLength(3);
    expect(all.has_more).toBe(false);
  });

  it('applies its own body limit when given one, else 64 KiB', async () => {
    const size = JSON.stringify(ada).length;
    const tight = await handler({ bodyLimitBytes: size - 1 })(post(ada));
    expect(tight).toMatchObject({ status: 413, body: { error: 'Payload Too Large', message: `Request body must be at most ${size - 1} bytes` } });
    expect((await handler({ bodyLimitBytes: size })(post(ada))).status).toBe(201);
    const padded = { ...ada, email: 'padded@example.com', company_name: 'x'.repeat(150) };
    expect((await handler()(post(padded))).status).toBe(201);
  });

  it('answers a fault that is not an API error with a 500 when nobody listens for it', async () => {
    const handle = handler();
    const broken = request('GET', '/api/customers', {
      header: (name) => {
        if (name.toLowerCase() === 'x-api-key') throw new Error('header store down');
        return null;
      },
    });
    const response: ApiResponse = await handle(broken);
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: 'Internal Server Error', message: 'An unexpected error occurred; quote the X-Request-Id when reporting it' });
  });

  it('sends every error as JSON that is never cached', async () => {
    const handle = handler();
    for (const response of [
      await handle(request('GET', '/api/nothing')),
      await handle(request('GET', '/api/customers', { header: () => null })),
      await handle(request('GET', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61')),
    ]) {
      expect(response.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    }
  });
});
