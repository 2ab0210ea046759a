import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { ApiResponse } from '../http/types.js';
import type { CustomerEvent } from '../types.js';
import { createMockApi, type MockApi } from './mock-api.js';

const HOUR = 3_600_000;
const key = generateApiKey();
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function send(api: MockApi, method: string, path: string, body?: unknown, more: Record<string, string> = {}, apiKey = key) {
  const headers = new Headers({ 'X-API-Key': apiKey, 'Content-Type': 'application/json', ...more });
  const [pathOnly, query] = path.split('?');
  return api.answer(method, pathOnly!, async () => ({
    method,
    path: pathOnly!,
    query: query ?? '',
    header: (name) => headers.get(name) ?? undefined,
    headers: Object.fromEntries(headers),
    body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  })) as Promise<ApiResponse>;
}

describe('the mock clock in createMockApi', () => {
  it('stamps seeds and requests with a frozen past clock, and the list filters by it', async () => {
    const api = createMockApi({ frozenAt: '2020-03-01T00:00:00Z', seed: [{ customers: [ada] }] });
    const [seeded] = await api.ready;
    expect(seeded!.created_at).toBe('2020-03-01T00:00:00.000Z');
    const created = await send(api, 'POST', '/api/customers', { ...ada, email: 'b@example.com' });
    expect((created.body as { created_at: string }).created_at).toBe('2020-03-01T00:00:00.001Z');
    const before = await send(api, 'GET', '/api/customers?created_before=2021-01-01T00:00:00Z');
    expect((before.body as { data: unknown[] }).data).toHaveLength(2);
    await api.reset();
    expect(api.clock.state()).toEqual({ now: '2020-03-01T00:00:00.000Z', frozen: true });
  });

  it('expires a key when the clock passes its expiresAt', async () => {
    const api = createMockApi({ frozenAt: '2026-01-01T00:00:00Z', sellers: [{ apiKey: key, expiresAt: '2026-01-01T01:00:00Z' }] });
    expect((await send(api, 'GET', '/api/customers')).status).toBe(200);
    await api.clock.advance(HOUR + 1000);
    expect((await send(api, 'GET', '/api/customers')).status).toBe(401);
  });

  it('forgets an Idempotency-Key after 24 hours of the clock, and renews rate-limit windows by it', async () => {
    const api = createMockApi({ frozenAt: '2026-01-01T00:00:00Z', rateLimit: 1 });
    const first = await send(api, 'POST', '/api/customers', ada, { 'Idempotency-Key': 'k-1' });
    expect(first.status).toBe(201);
    expect((await send(api, 'POST', '/api/customers', ada, { 'Idempotency-Key': 'k-1' })).status).toBe(429);
    await api.clock.advance(1000);
    expect((await send(api, 'POST', '/api/customers', ada, { 'Idempotency-Key': 'k-1' })).status).toBe(201); // replay
    await api.clock.advance(24 * HOUR);
    // The key is forgotten: a new create, refused as a duplicate email.
    expect((await send(api, 'POST', '/api/customers', ada, { 'Idempotency-Key': 'k-1' })).status).toBe(409);
  });

  it('dates events, deletes included, by the clock', async () => {
    const api = createMockApi({ frozenAt: '2026-01-01T00:00:00Z' });
    const events: CustomerEvent[] = [];
    api.onEvent((event) => events.push(event));
    const { body } = await send(api, 'POST', '/api/customers', ada);
    await api.clock.advance(HOUR);
    await send(api, 'DELETE', `/api/customers/${(body as { id: string }).id}`);
    expect(events.map((event) => event.created_at)).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-01T01:00:00.000Z']);
  });
});

describe('the request journal of createMockApi', () => {
  it('records every request, refused and unknown ones too, with the key cut to its prefix and the seller', async () => {
    const api = createMockApi({ frozenAt: '2026-01-01T00:00:00Z' });
    await send(api, 'POST', '/api/customers', ada, { 'Idempotency-Key': 'k-1' });
    await send(api, 'GET', '/api/nothing-here');
    await send(api, 'GET', '/api/customers', undefined, {}, 'sk_live_bad');
    api.nextResponse('getCustomer', { status: 503 });
    await send(api, 'GET', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61?x=1');
    const { data, dropped } = api.requests();
    expect(dropped).toBe(0);
    expect(data.map((e) => [e.method, e.operation, e.status, e.forced])).toEqual([
      ['POST', 'createCustomer', 201, false],
      ['GET', null, 404, false],
      ['GET', 'listCustomers', 401, false],
      ['GET', 'getCustomer', 503, true],
    ]);
    const [create] = data;
    expect(create).toMatchObject({
      at: '2026-01-01T00:00:00.000Z',
      path: '/api/customers',
      body: ada,
      seller: api.defaultSeller!.sellerId,
      headers: { 'x-api-key': `${key.slice(0, 12)}…`, 'idempotency-key': 'k-1' },
    });
    expect(create!.requestId).toMatch(/^req_/);
    expect(data[2]!.seller).toBeNull();
    expect(data[3]!.query).toBe('x=1');
    expect(api.requests({ operation: 'createCustomer', status: 201 }).data).toHaveLength(1);
    await api.reset();
    expect(api.requests().data).toEqual([]);
  });

  it('keeps `journalSize` requests and counts those dropped', async () => {
    const api = createMockApi({ journalSize: 2 });
    for (let i = 0; i < 5; i++) await send(api, 'GET', '/api/customers');
    expect(api.requests()).toMatchObject({ dropped: 3 });
    expect(api.requests().data).toHaveLength(2);
  });
});
