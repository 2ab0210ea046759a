// The journal and clock endpoints over HTTP: filters, refusals named by entry, what is (not) journaled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { ada, key } from './support.js';

const SHOP = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
let mock: MockServer;
let url: string;

const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
};
const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(method, `/api/customers${path}`, body, { 'X-API-Key': key('a'), ...headers });

beforeAll(async () => {
  const seed = parseSeed({ clock: { now: '2021-06-01T12:00:00Z' }, sellers: [{ id: SHOP, keys: [{ key: key('a') }] }] });
  mock = await createMockServer({ seed, journalSize: 3 });
  url = await mock.listen(0);
});
afterAll(() => mock.close());

describe('GET and DELETE /__mock/requests', () => {
  it('journals API requests (Prefer examples as forced) but never control requests, keeping --journal-size', async () => {
    await call('DELETE', '/__mock/requests');
    await api('POST', '', ada);
    await api('GET', '', undefined, { Prefer: 'code=200' });
    await call('GET', '/__mock/clock');
    const { status, body } = await call('GET', '/__mock/requests');
    expect(status).toBe(200);
    expect(body.dropped).toBe(0);
    expect(body.data.map((e: { operation: string; forced: boolean; at: string }) => [e.operation, e.forced, e.at])).toEqual([
      ['createCustomer', false, '2021-06-01T12:00:00.000Z'],
      ['listCustomers', true, '2021-06-01T12:00:00.000Z'],
    ]);
    for (let i = 0; i < 3; i++) await api('GET', '/nope');
    const full = await call('GET', '/__mock/requests?limit=2&method=get');
    expect(full.body).toMatchObject({ dropped: 2, data: [{ status: 404 }, { status: 404 }] });
    expect(await call('DELETE', '/__mock/requests')).toEqual({ status: 204, body: undefined });
    expect((await call('GET', '/__mock/requests')).body).toEqual({ data: [], dropped: 0 });
  });

  it('refuses a filter it does not know or a bad value, naming it', async () => {
    for (const [query, message] of [
      ['operation=listCustomer', 'query.operation: must be one of'],
      ['status=99', 'query.status: must be an HTTP status'],
      ['seller=42', 'query.seller: must be a UUID'],
      ['limit=0', 'query.limit: must be a whole number, 1 or more'],
      ['sellerId=x', 'query.sellerId: is not allowed; use operation, method, status, seller, limit'],
      ['limit=1&limit=2', 'query.limit: must be given at most once'],
    ] as const) {
      const { status, body } = await call('GET', `/__mock/requests?${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'Bad Request', message: expect.stringContaining(message) });
    }
  });
});

describe('GET, POST and DELETE /__mock/clock', () => {
  it('sets and freezes, advances, refuses going back, and unfreezes without jumping back', async () => {
    expect((await call('POST', '/__mock/clock', { now: '2030-01-01T00:00:00+01:00' })).body).toEqual({ now: '2029-12-31T23:00:00.000Z', frozen: true });
    expect((await call('POST', '/__mock/clock', { advance_ms: 3_600_000 })).body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    const back = await call('POST', '/__mock/clock', { now: '2029-01-01T00:00:00Z' });
    expect(back).toEqual({ status: 400, body: { error: 'Bad Request', message: expect.stringMatching(/^body\.now: the clock cannot go back/) } });
    for (const [body, message] of [
      [{}, 'body: give exactly one of now'],
      [{ now: '2031-01-01T00:00:00Z', advance_ms: 1 }, 'body: give exactly one of now'],
      [{ advance_ms: -1 }, 'body.advance_ms: must be a whole number'],
      [{ now: 'tomorrow' }, 'body.now: must be an ISO 8601 date-time'],
      [{ later: 1 }, 'body.later: is not allowed'],
    ] as const) {
      expect(await call('POST', '/__mock/clock', body)).toEqual({ status: 400, body: { error: 'Bad Request', message: expect.stringContaining(message) } });
    }
    const running = await call('DELETE', '/__mock/clock');
    expect(running.body.frozen).toBe(false);
    expect(Date.parse(running.body.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00Z'));
    expect((await call('PUT', '/__mock/clock')).status).toBe(405);
  });

  it('goes back to the seed clock on reset', async () => {
    await call('POST', '/__mock/reset');
    expect((await call('GET', '/__mock/clock')).body).toEqual({ now: '2021-06-01T12:00:00.000Z', frozen: true });
  });
});

describe('forcing listCustomers', () => {
  it('answers a forced success body, and words a forced 400 as a query parameter problem', async () => {
    const page = { data: [], has_more: false, next_cursor: null };
    expect((await call('POST', '/__mock/next-responses', { operation: 'listCustomers', status: 200, body: page })).status).toBe(204);
    expect(await api('GET', '')).toEqual({ status: 200, body: page });
    const forced = await api('GET', '', undefined, { Prefer: 'code=400' });
    expect(forced).toEqual({ status: 400, body: { error: 'Bad Request', message: 'limit must be at least 1' } });
  });
});
