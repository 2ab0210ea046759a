// Usage in Node: the handlers behind `setupServer`, exercised with real fetch calls.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://customers.test';
const mock = createCustomersMock({
  baseUrl: BASE,
  sellers: [{ customerLimit: 2 }, { customerLimit: 5 }],
});
const [alice, bob] = mock.sellers as [(typeof mock.sellers)[0], (typeof mock.sellers)[0]];
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function call(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['X-API-Key'] = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  return fetch(`${BASE}${path}`, { method, headers, body });
}

describe('customers mock (node)', () => {
  it('runs the whole lifecycle with the documented statuses and headers', async () => {
    const created = await call('POST', '/api/customers', { key: alice.apiKey, body: ada });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json');
    expect(created.headers.get('x-request-id')).toBeTruthy();
    const customer = await created.json();
    expect(customer).toMatchObject({ ...ada, seller_id: alice.sellerId, language: 'de', status: 'active', source: 'api' });
    expect(created.headers.get('location')).toBe(`/api/customers/${customer.id}`);

    const fetched = await call('GET', `/api/customers/${customer.id}`, { key: alice.apiKey });
    expect(await fetched.json()).toEqual(customer);

    const patched = await call('PATCH', `/api/customers/${customer.id}`, {
      key: alice.apiKey,
      body: { status: 'suspended', company_name: 'Engines' },
    });
    expect(patched.status).toBe(200);
    const updated = await patched.json();
    expect(updated).toMatchObject({ status: 'suspended', company_name: 'Engines', created_at: customer.created_at });
    expect(updated.updated_at > customer.updated_at).toBe(true);

    const deleted = await call('DELETE', `/api/customers/${customer.id}`, { key: alice.apiKey });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await call('GET', `/api/customers/${customer.id}`, { key: alice.apiKey })).status).toBe(404);
  });

  it('keeps sellers apart: another seller’s customer is the same 404 as a missing one', async () => {
    const customer = await (await call('POST', '/api/customers', { key: alice.apiKey, body: ada })).json();
    const theirs = await call('GET', `/api/customers/${customer.id}`, { key: bob.apiKey });
    const missing = await call('GET', '/api/customers/00000000-0000-4000-8000-000000000000', { key: bob.apiKey });
    const malformed = await call('GET', '/api/customers/not-a-uuid', { key: bob.apiKey });
    for (const response of [theirs, missing, malformed]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: 'Not Found', message: 'Customer not found' });
    }
    expect((await call('DELETE', `/api/customers/${customer.id}`, { key: bob.apiKey })).status).toBe(404);
    expect(mock.store.countCustomers(alice.sellerId)).toBe(1);
  });

  it('answers 409 for a duplicate email in any case and 403 at the plan limit', async () => {
    await call('POST', '/api/customers', { key: alice.apiKey, body: ada });
    const duplicate = await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, email: 'ADA@example.com' } });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.json()).toEqual({ error: 'Conflict', message: 'A customer with email ADA@example.com already exists' });

    await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, email: 'b@example.com' } });
    const third = await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, email: 'c@example.com' } });
    expect(third.status).toBe(403);
    expect(await third.json()).toEqual({
      error: 'Forbidden',
      message: 'Customer limit reached; your subscription plan allows 2 customers',
    });
  });

  it('holds the plan limit under parallel creates', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, email: `p${n}@example.com` } }),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 403, 403, 403, 403, 403, 403]);
    expect(mock.store.countCustomers(alice.sellerId)).toBe(2);
  });

  it('validates from the contract and names the property', async () => {
    const cases: Array<[unknown, string]> = [
      [{ last_name: 'L', email: 'a@b.de' }, 'first_name is required'],
      [{ ...ada, nickname: 'x' }, 'nickname is not an allowed property'],
      [{ ...ada, address_data: { city: 'x'.repeat(101) } }, 'address_data.city must be at most 100 characters'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/api/customers', { key: alice.apiKey, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Bad Request', message });
    }
    expect(mock.store.countCustomers(alice.sellerId)).toBe(0);
  });

  it('applies the body rules (415, 413, invalid JSON)', async () => {
    const wrongType = await call('POST', '/api/customers', { key: alice.apiKey, body: JSON.stringify(ada), headers: { 'Content-Type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    const huge = await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, company_name: 'x'.repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ error: 'Payload Too Large', message: 'Request body must be at most 65536 bytes' });
    const broken = await call('POST', '/api/customers', { key: alice.apiKey, body: '{"first_name":' });
    expect(broken.status).toBe(400);
  });

  it('authenticates by X-API-Key or Bearer, and answers 401 otherwise', async () => {
    const bearer = await fetch(`${BASE}/api/customers/00000000-0000-4000-8000-000000000000`, {
      headers: { Authorization: `Bearer ${alice.apiKey}` },
    });
    expect(bearer.status).toBe(404);
    const missing = await call('GET', '/api/customers/x');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toEqual({
      error: 'Unauthorized',
      message: 'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token',
    });

    const revocable = await mock.addSeller();
    expect((await call('GET', '/api/customers/x', { key: revocable.apiKey })).status).toBe(404);
    await mock.revokeKey(revocable.apiKey);
    expect((await call('GET', '/api/customers/x', { key: revocable.apiKey })).status).toBe(401);
  });

  it('replays idempotent creates and echoes X-Request-Id', async () => {
    const headers = { 'Idempotency-Key': 'retry-1', 'X-Request-Id': 'req_test.1' };
    const first = await call('POST', '/api/customers', { key: alice.apiKey, body: ada, headers });
    const second = await call('POST', '/api/customers', { key: alice.apiKey, body: ada, headers });
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    expect(second.headers.get('x-request-id')).toBe('req_test.1');
    expect(mock.store.countCustomers(alice.sellerId)).toBe(1);
    const reused = await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, last_name: 'Byron' }, headers });
    expect(reused.status).toBe(400);
  });

  it('answers methods a path does not support (PUT, PROPFIND, LINK, QUERY, OPTIONS) with 405 + Allow, after the key', async () => {
    const item = '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';
    for (const method of ['PUT', 'PROPFIND', 'LINK', 'QUERY', 'OPTIONS']) {
      for (const [path, allow] of [['/api/customers', 'GET, HEAD, POST'], [item, 'GET, HEAD, PATCH, DELETE']] as const) {
        const response = await call(method, path, { key: alice.apiKey });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect(await response.json()).toEqual({ error: 'Method Not Allowed', message: `Method ${method} is not allowed here; use ${allow}` });
      }
      expect((await call(method, '/api/customers')).status, `${method} without a key`).toBe(401);
    }
  });

  it('lists and finds customers by email through the query string', async () => {
    const created = await (await call('POST', '/api/customers', { key: alice.apiKey, body: { ...ada, email: 'ada+msw@example.com' } })).json();
    const found = await call('GET', `/api/customers?email=${encodeURIComponent('ADA+msw@example.com')}`, { key: alice.apiKey });
    expect(await found.json()).toEqual({ data: [created], has_more: false, next_cursor: null });
    const bad = await call('GET', '/api/customers?limit=0', { key: alice.apiKey });
    expect(await bad.json()).toEqual({ error: 'Bad Request', message: 'limit must be at least 1' });
  });
});
