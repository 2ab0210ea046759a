import { beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { API_VERSIONS, LATEST_API_VERSION } from '../versions/api-version.js';
import { createApiHandler } from './api-handler.js';
import type { ApiResponse } from './types.js';

const key = generateApiKey();
const supported = API_VERSIONS.map((entry) => entry.version).join(', ');
let handle: ReturnType<typeof createApiHandler>;

beforeEach(async () => {
  const keys = new MemoryKeyRegistry();
  await keys.add(key, { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 });
  handle = createApiHandler({ service: createCustomerService({ store: new MemoryCustomerStore() }), lookupKey: keys.lookup });
});

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<ApiResponse> {
  const h = new Headers(headers);
  return handle({ method, path, header: (name) => h.get(name), body: body === undefined ? null : new TextEncoder().encode(body) });
}

describe('createApiHandler: Customers-Version', () => {
  it('answers without the header in the latest version, and in the version asked for', async () => {
    const plain = await send('GET', '/api/customers', { 'X-API-Key': key });
    expect(plain.status).toBe(200);
    expect(plain.headers['Customers-Version']).toBe(LATEST_API_VERSION);
    const pinned = await send('GET', '/api/customers', { 'X-API-Key': key, 'Customers-Version': '2026-11-26' });
    expect(pinned.status).toBe(200);
    expect(pinned.headers['Customers-Version']).toBe('2026-11-26');
  });

  it.each(['2020-13-01', '2020-01-01', 'latest'])('refuses %s with 400 naming the header, before the API key', async (sent) => {
    for (const headers of [{ 'X-API-Key': key }, {}] as Record<string, string>[]) {
      const response = await send('POST', '/api/customers', { ...headers, 'Customers-Version': sent }, '{}');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Bad Request', message: `Customers-Version header must be one of: ${supported}` });
      expect(response.headers['Customers-Version']).toBe(LATEST_API_VERSION);
      expect(response.headers['X-Request-Id']).toBeTruthy();
    }
  });

  it('checks the route first: an unknown path is 404 in the latest version whatever the header', async () => {
    const response = await send('GET', '/api/nope', { 'Customers-Version': '2020-13-01' });
    expect(response.status).toBe(404);
    expect(response.headers['Customers-Version']).toBe(LATEST_API_VERSION);
  });

  it('carries the requested version on 401, 404, 405, 413 and 415 answers', async () => {
    const version = { 'Customers-Version': LATEST_API_VERSION };
    const answers = [
      [401, await send('GET', '/api/customers', version)],
      [404, await send('GET', '/api/unknown', version)],
      [405, await send('PUT', '/api/customers', { ...version, 'X-API-Key': key })],
      [413, await send('POST', '/api/customers', { ...version, 'X-API-Key': key, 'Content-Type': 'application/json' }, 'x'.repeat(70_000))],
      [415, await send('POST', '/api/customers', { ...version, 'X-API-Key': key, 'Content-Type': 'text/plain' }, '{}')],
    ] as const;
    for (const [status, response] of answers) {
      expect(response.status).toBe(status);
      expect(response.headers['Customers-Version'], String(status)).toBe(LATEST_API_VERSION);
    }
  });
});
