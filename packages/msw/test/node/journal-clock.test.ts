// The request journal and the clock on the MSW handlers: the HTTP mock's Python scenarios (test/python in
// @customers-api/mock-server) but for webhook retries, which MSW does not deliver; its events follow the clock.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://journal.test';
const SHOP = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const KEY = `sk_live_${'a'.repeat(48)}`;
const EXPIRING = `sk_live_${'b'.repeat(48)}`;
const HOUR = 3_600_000;
const grace = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' };

const mock = createCustomersMock({
  baseUrl: BASE,
  frozenAt: '2020-01-01T00:00:00Z',
  sellers: [{ sellerId: SHOP, apiKey: KEY }],
});
const server = setupServer(...mock.handlers);
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await mock.addKey(SHOP, { apiKey: EXPIRING, expiresAt: '2020-01-01T01:00:00Z' });
});
beforeEach(() => mock.reset());
afterAll(() => server.close());

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, apiKey = KEY) =>
  fetch(`${BASE}/api/customers${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

describe('mock.requests()', () => {
  it('shows one createCustomer with its Idempotency-Key, the key only by its prefix, typed by operation', async () => {
    expect((await send('POST', '', grace, { 'Idempotency-Key': 'order-42' })).status).toBe(201);
    await send('GET', '/00000000-0000-4000-8000-000000000000');
    const creates = mock.requests({ operation: 'createCustomer', seller: SHOP });
    expect(creates).toHaveLength(1);
    const [create] = creates;
    expect(create).toMatchObject({
      at: '2020-01-01T00:00:00.000Z',
      method: 'POST',
      path: '/api/customers',
      status: 201,
      forced: false,
      seller: SHOP,
      body: grace,
      headers: { 'idempotency-key': 'order-42', 'x-api-key': `${KEY.slice(0, 12)}…` },
    });
    expect(JSON.stringify(mock.requests())).not.toContain(KEY);
    expect(mock.requests({ status: 404 }).map((entry) => entry.operation)).toEqual(['getCustomer']);
  });

  it('records override answers as forced, and forgets everything on reset', async () => {
    mock.use('listCustomers', () => ({ status: 200, body: { data: [], has_more: false, next_cursor: null } }));
    await send('GET', '?limit=5');
    expect(mock.requests()).toMatchObject([{ operation: 'listCustomers', query: 'limit=5', status: 200, forced: true }]);
    await mock.reset();
    expect(mock.requests()).toEqual([]);
  });
});

describe('mock.clock', () => {
  it('expires a key with expiresAt one hour ahead after advancing an hour and a second', async () => {
    expect((await send('GET', '', undefined, {}, EXPIRING)).status).toBe(200);
    await mock.clock.advance(HOUR + 1000);
    expect(mock.clock.now().toISOString()).toBe('2020-01-01T01:00:01.000Z');
    expect((await send('GET', '', undefined, {}, EXPIRING)).status).toBe(401);
    expect(mock.requests({ status: 401 })).toHaveLength(1);
  });

  it('stamps a customer created while the clock stands in the past, found by created_before; events follow', async () => {
    const created = await (await send('POST', '', grace)).json();
    expect(created.created_at).toBe('2020-01-01T00:00:00.000Z');
    const before = await (await send('GET', '?created_before=2020-01-02T00:00:00Z')).json();
    expect(before.data.map((c: { id: string }) => c.id)).toEqual([created.id]);
    const after = await (await send('GET', '?created_after=2020-01-02T00:00:00Z')).json();
    expect(after.data).toEqual([]);
    await mock.clock.advance(HOUR);
    await send('PATCH', `/${created.id}`, { status: 'suspended' });
    expect(mock.events().map((event) => event.created_at)).toEqual(['2020-01-01T00:00:00.000Z', '2020-01-01T01:00:00.000Z']);
  });

  it('sets and freezes, refuses going back, and is the start again after reset()', async () => {
    await mock.clock.set(new Date('2021-01-01T00:00:00Z'));
    expect([mock.clock.now().toISOString(), mock.clock.frozen]).toEqual(['2021-01-01T00:00:00.000Z', true]);
    await expect(mock.clock.set('2020-06-01T00:00:00Z')).rejects.toThrow(/cannot go back/);
    mock.clock.unfreeze();
    expect(mock.clock.frozen).toBe(false);
    mock.clock.reset();
    expect([mock.clock.now().toISOString(), mock.clock.frozen]).toEqual(['2020-01-01T00:00:00.000Z', true]);
  });
});
