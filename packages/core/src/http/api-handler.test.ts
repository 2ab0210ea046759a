import { beforeEach, describe, expect, it } from 'vitest';
import { assertCustomerSchema, assertErrorSchema } from '../../test/spec.js';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import type { CustomerStore } from '../store.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { createMemoryRateLimiter } from '../rate-limit/memory-rate-limiter.js';
import { createApiHandler } from './api-handler.js';
import type { ApiResponse } from './types.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { live } from '../testing/tenants.js';

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const seller = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 };
const key = generateApiKey();
const encoder = new TextEncoder();

let store: MemoryCustomerStore;
let handle: ReturnType<typeof createApiHandler>;
let keys: MemoryKeyRegistry;

beforeEach(async () => {
  keys = new MemoryKeyRegistry();
  await keys.add(key, seller);
  store = new MemoryCustomerStore();
  handle = createApiHandler({ service: createCustomerService({ store }), lookupKey: keys.lookup });
});

function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const h = new Headers({ 'X-API-Key': key, ...headers });
  let bytes: Uint8Array | null = null;
  if (body instanceof Uint8Array) bytes = body;
  else if (typeof body === 'string') bytes = encoder.encode(body);
  else if (body !== undefined) bytes = encoder.encode(JSON.stringify(body));
  if (bytes && !h.has('content-type')) h.set('content-type', 'application/json');
  return handle({ method, path, header: (name) => h.get(name), body: bytes });
}

function expectError(response: ApiResponse, status: number, message: string) {
  expect(response.status).toBe(status);
  assertErrorSchema(response.body);
  expect(response.body).toEqual({ error: expect.any(String), message });
  expect(response.headers['X-Request-Id']).toBeTruthy();
}

describe('createApiHandler', () => {
  it('creates (201 + Location), reads, updates and deletes (204, empty)', async () => {
    const created = await send('POST', '/api/customers', ada);
    expect(created.status).toBe(201);
    assertCustomerSchema(created.body);
    const id = (created.body as { id: string }).id;
    expect(created.headers.Location).toBe(`/api/customers/${id}`);
    expect(created.headers['Content-Type']).toBe('application/json');

    expect((await send('GET', `/api/customers/${id}`)).body).toEqual(created.body);
    const patched = await send('PATCH', `/api/customers/${id}`, { status: 'suspended' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, status: 'suspended' });

    const deleted = await send('DELETE', `/api/customers/${id}`);
    expect(deleted).toEqual({
      status: 204,
      headers: {
        'X-Request-Id': deleted.headers['X-Request-Id'],
        'Cache-Control': 'no-store',
        'Customers-Version': LATEST_API_VERSION,
      },
    });
    expect(deleted.headers['X-Request-Id']).toMatch(/^req_[0-9a-f]{32}$/);
    expectError(await send('GET', `/api/customers/${id}`), 404, 'Customer not found');
  });

  it('accepts a Bearer token and a JSON content type with parameters', async () => {
    const response = await send('POST', '/api/customers', ada, {
      'X-API-Key': '',
      Authorization: `Bearer ${key}`,
      'Content-Type': 'Application/JSON; charset=utf-8',
    });
    expect(response.status).toBe(201);
  });

  it('echoes an acceptable X-Request-Id and replaces an unacceptable one', async () => {
    const mine = await send('GET', '/api/customers/x', undefined, { 'X-Request-Id': 'req_abc.1:2-3' });
    expect(mine.headers['X-Request-Id']).toBe('req_abc.1:2-3');
    const bad = await send('GET', '/api/customers/x', undefined, { 'X-Request-Id': 'has space' });
    expect(bad.headers['X-Request-Id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('answers 401 with WWW-Authenticate before anything else', async () => {
    const missing = await send('POST', '/api/customers', 'not json', { 'X-API-Key': '' });
    expectError(
      missing,
      401,
      'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token',
    );
    expect(missing.headers['WWW-Authenticate']).toBe('Bearer');
    expectError(
      await send('GET', '/api/customers/x', undefined, { 'X-API-Key': generateApiKey() }),
      401,
      'The API key is invalid, revoked or expired',
    );
  });

  it('applies the body rules: 415, 413 at 64 KiB, 400 for bad JSON or a non-object', async () => {
    expectError(
      await send('POST', '/api/customers', JSON.stringify(ada), { 'Content-Type': 'text/plain' }),
      415,
      'Content-Type must be application/json',
    );
    expectError(
      await send('POST', '/api/customers', JSON.stringify(ada), { 'Content-Type': 'application/jsonx' }),
      415,
      'Content-Type must be application/json',
    );
    // Exactly 65,536 bytes passes the size rule (and then fails validation on the long name)...
    const padding = (size: number) => {
      const base = JSON.stringify({ ...ada, first_name: '' });
      return JSON.stringify({ ...ada, first_name: 'x'.repeat(size - base.length) });
    };
    expect(encoder.encode(padding(65_536)).byteLength).toBe(65_536);
    expectError(
      await send('POST', '/api/customers', padding(65_536)),
      400,
      'first_name must be at most 100 characters',
    );
    // ...one byte more is 413.
    expectError(
      await send('POST', '/api/customers', padding(65_537)),
      413,
      'Request body must be at most 65536 bytes',
    );
    expectError(await send('POST', '/api/customers', '{"first_name":'), 400, 'body must be valid JSON (UTF-8)');
    expectError(
      await send('POST', '/api/customers', new Uint8Array([0x7b, 0xff, 0x7d])),
      400,
      'body must be valid JSON (UTF-8)',
    );
    expectError(await send('POST', '/api/customers', '[]'), 400, 'body must be a JSON object');
    expectError(await send('POST', '/api/customers', 'null'), 400, 'body must be a JSON object');
    expectError(await send('POST', '/api/customers'), 400, 'body must be a JSON object');
    expectError(await send('PATCH', '/api/customers/x', '{}'), 400, 'body must have at least 1 property');
    expect(await store.findCustomer(live(seller.sellerId), '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('replays an idempotent create with the same status and customer', async () => {
    const first = await send('POST', '/api/customers', ada, { 'Idempotency-Key': 'abc' });
    const second = await send('POST', '/api/customers', ada, { 'Idempotency-Key': 'abc' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.Location).toBe(first.headers.Location);
  });

  it('answers unknown paths with 404 and unsupported methods with 405 + Allow', async () => {
    expectError(await send('GET', '/api/customers/a/b'), 404, 'No route matches /api/customers/a/b');
    expectError(await send('GET', '/api/customers/'), 404, 'No route matches /api/customers/');
    const put = await send('PUT', '/api/customers');
    expectError(put, 405, 'Method PUT is not allowed here; use GET, HEAD, POST');
    expect(put.headers.Allow).toBe('GET, HEAD, POST');
    const putItem = await send('PUT', '/api/customers/x', ada);
    expectError(putItem, 405, 'Method PUT is not allowed here; use GET, HEAD, PATCH, DELETE');
    expect(putItem.headers.Allow).toBe('GET, HEAD, PATCH, DELETE');
  });

  it('answers every method on every path as the route table says, and stores nothing on a 405', async () => {
    const item = '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61';
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'LINK', 'QUERY'];
    const expected: Record<string, Record<string, number>> = {
      '/api/customers': { GET: 200, HEAD: 200, POST: 201 },
      [item]: { GET: 404, HEAD: 404, PATCH: 404, DELETE: 404 },
    };
    for (const [path, answers] of Object.entries(expected)) {
      for (const method of methods) {
        const response = await send(method, path, ada);
        expect(response.status, `${method} ${path}`).toBe(answers[method] ?? 405);
        if (response.status === 405) {
          expect(response.headers.Allow, `${method} ${path}`).toBe(path === item ? 'GET, HEAD, PATCH, DELETE' : 'GET, HEAD, POST');
        }
      }
    }
    expect(await store.countCustomers(seller.sellerId)).toBe(1);
    const unauthenticated = await send('TRACE', '/api/customers', undefined, { 'X-API-Key': '' });
    expect(unauthenticated.status).toBe(401);
  });

  it('answers HEAD like GET without a body, and marks every answer as not cacheable', async () => {
    const created = await send('POST', '/api/customers', ada);
    expect(created.headers['Cache-Control']).toBe('no-store');
    const id = (created.body as { id: string }).id;
    const head = await send('HEAD', `/api/customers/${id}`);
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(head.headers['Content-Type']).toBe('application/json');
    const missing = await send('HEAD', '/api/customers/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toBeUndefined();
    expect(missing.headers['Cache-Control']).toBe('no-store');
  });

  it('ignores a body on an operation that takes none, whatever its type or size', async () => {
    const created = await send('POST', '/api/customers', ada);
    const id = (created.body as { id: string }).id;
    const huge = new Uint8Array(200_000).fill(0x41);
    const read = await send('GET', `/api/customers/${id}`, huge, { 'Content-Type': 'text/plain' });
    expect(read.status).toBe(200);
    const deleted = await send('DELETE', `/api/customers/${id}`, huge, { 'Content-Type': 'text/plain' });
    expect(deleted.status).toBe(204);
  });

  it('treats percent-encoded and malformed ids like any missing customer', async () => {
    const created = await send('POST', '/api/customers', ada);
    const id = (created.body as { id: string }).id;
    expect((await send('GET', `/api/customers/${encodeURIComponent(id)}`)).status).toBe(200);
    expect((await send('GET', `/api/customers/${id.replace('-', '%2D')}`)).status).toBe(200);
    for (const path of ['%E0%A4%A', '..', 'null', `${id}%00`]) {
      expectError(await send('GET', `/api/customers/${path}`), 404, 'Customer not found');
    }
  });

  it('turns an unexpected fault into a generic 500 and reports it', async () => {
    const reported: unknown[] = [];
    const failing: CustomerStore = {
      findCustomer: async () => {
        throw new Error('database is on fire at /var/lib/db');
      },
      insertCustomer: async () => ({ kind: 'created', customer: undefined as never }),
      updateCustomer: async () => ({ kind: 'not_found' }),
      deleteCustomer: async () => false,
      listCustomers: async () => [],
    };
    handle = createApiHandler({
      service: createCustomerService({ store: failing }),
      lookupKey: keys.lookup,
      onUnexpectedError: (error) => reported.push(error),
    });
    const response = await send('GET', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61');
    expectError(response, 500, 'An unexpected error occurred; quote the X-Request-Id when reporting it');
    expect(JSON.stringify(response.body)).not.toContain('fire');
    expect(reported).toHaveLength(1);
  });
});

describe('createApiHandler with a rate limiter', () => {
  it('limits each seller after authentication and puts the headers on every answer', async () => {
    const other = generateApiKey();
    await keys.add(other, { sellerId: 'f0e1d2c3-b4a5-4968-8776-655443322110', customerLimit: 10 });
    handle = createApiHandler({
      service: createCustomerService({ store }),
      lookupKey: keys.lookup,
      rateLimiter: createMemoryRateLimiter({ limit: 2, now: () => 0 }),
    });
    const missing = await send('GET', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61');
    expectError(missing, 404, 'Customer not found');
    expect(missing.headers).toMatchObject({ RateLimit: '"seller";r=1;t=1', 'RateLimit-Policy': '"seller";q=2;w=1' });
    expect((await send('GET', '/api/customers')).headers.RateLimit).toBe('"seller";r=0;t=1');
    const refused = await send('GET', '/api/customers');
    expectError(refused, 429, 'Too many requests; retry after 1 second');
    expect(refused.headers).toMatchObject({ 'Retry-After': '1', RateLimit: '"seller";r=0;t=1', 'Cache-Control': 'no-store' });
    expect((await send('GET', '/api/customers', undefined, { 'X-API-Key': other })).status).toBe(200);
    expect((await send('GET', '/api/customers', undefined, { 'X-API-Key': 'sk_live_nope' })).headers.RateLimit).toBeUndefined();
  });
});
