import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { createApiHandler } from './api-handler.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';

async function setUp() {
  const keys = new MemoryKeyRegistry();
  const reader = generateApiKey({ kind: 'restricted', mode: 'live' });
  // Both live: a test key's customers are test data, which a live key never sees (test mode is a tenancy boundary).
  const writer = generateApiKey({ kind: 'restricted', mode: 'live' });
  await keys.add(reader, { sellerId, customerLimit: 10, scopes: ['customers:read'] });
  await keys.add(writer, { sellerId, customerLimit: 10, scopes: ['customers:write'] });
  const store = new MemoryCustomerStore();
  const handle = createApiHandler({
    service: createCustomerService({ store }),
    lookupKey: keys.lookup,
  });
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const h = new Headers(headers);
    const [route, query = ''] = path.split('?');
    return handle({ method, path: route!, query, header: (name) => h.get(name), body: body === undefined ? null : new TextEncoder().encode(body) });
  };
  return { reader, writer, store, send };
}

describe('createApiHandler: restricted keys, in the documented order of checks', () => {
  it('403 names the scope and the operation, before the content type, size, JSON or schema is looked at; nothing stored', async () => {
    const { reader, writer, store, send } = await setUp();
    for (const [contentType, body] of [['text/plain', 'x'], ['application/json', '{'], ['application/json', '{}'], ['application/json', 'x'.repeat(70_000)]]) {
      const refused = await send('POST', '/api/customers', { 'X-API-Key': reader, 'Content-Type': contentType! }, body);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'Forbidden',
        message: 'This restricted API key lacks the customers:write scope, which createCustomer (POST /api/customers) needs; create a key granted that scope, or use a secret key',
      });
      expect(refused.headers['X-Request-Id']).toBeTruthy();
    }
    expect(await store.countCustomers(sellerId)).toBe(0);
    // Before the id too: a malformed id of an operation the key may not call is 403, not 404.
    expect((await send('DELETE', '/api/customers/42', { 'X-API-Key': reader })).status).toBe(403);
    // Before the query: a bad one is 403 for a key without the scope, 400 for a key with it.
    expect((await send('GET', '/api/customers?limit=nonsense', { 'X-API-Key': writer })).status).toBe(403);
    expect((await send('GET', '/api/customers?limit=nonsense', { 'X-API-Key': reader })).status).toBe(400);
  });

  it('after the route, the version header, the key and the method: those answers come first', async () => {
    const { reader, send } = await setUp();
    expect((await send('POST', '/api/nope', { 'X-API-Key': reader }, '{}')).status).toBe(404);
    expect((await send('POST', '/api/customers', { 'X-API-Key': reader, 'Customers-Version': 'latest' }, '{}')).status).toBe(400);
    expect((await send('POST', '/api/customers', { 'X-API-Key': `${reader.slice(0, 8)}${'Q'.repeat(48)}` }, '{}')).status).toBe(401);
    expect((await send('PUT', '/api/customers', { 'X-API-Key': reader }, '{}')).status).toBe(405);
  });

  it('a key with the scope runs the operation; write does not imply read', async () => {
    const { reader, writer, send } = await setUp();
    const created = await send('POST', '/api/customers', { 'X-API-Key': writer, 'Content-Type': 'application/json' }, JSON.stringify({ first_name: 'Ada', last_name: 'L', email: 'ada@example.com' }));
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect((await send('GET', `/api/customers/${id}`, { 'X-API-Key': reader })).status).toBe(200);
    const read = await send('GET', `/api/customers/${id}`, { 'X-API-Key': writer });
    expect(read.status).toBe(403);
    expect((read.body as { message: string }).message).toContain('customers:read scope, which getCustomer (GET /api/customers/{id})');
  });
});
