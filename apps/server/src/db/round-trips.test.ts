import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

// Every statement the server sends PostgreSQL goes through pg's Client#query: one call is one round trip (BEGIN and
// COMMIT included). The hot operations must cost one each, besides the key lookup where it cannot be joined in.
describe('round trips to PostgreSQL per request', () => {
  let server: TestServer;
  let seller: TestSeller;
  let id: string;
  const query = vi.spyOn(pg.Client.prototype, 'query');

  beforeAll(async () => {
    // Request logs are written by a timer off the request's path, in batches: their statements are not the request's.
    server = await startTestServer('postgres', { requestLogs: false });
    seller = await server.seller();
    id = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json.id;
    // The key's first use writes its last_used_at (at most once a minute): done before counting.
    await server.app.drainKeyUsage();
  });
  afterAll(async () => {
    query.mockRestore();
    await server.close();
  });

  async function roundTrips(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    query.mockClear();
    const response = await server.call(method, path, { key: seller.key, body, headers });
    return { status: response.status, roundTrips: query.mock.calls.length };
  }

  it('GET: one (the key and the customer in one statement), found or not', async () => {
    expect(await roundTrips('GET', `/api/customers/${id}`)).toEqual({ status: 200, roundTrips: 1 });
    // Another id of the same shape (its last digit changed: an id ending in 0 made this the same id, 1 time in 16).
    const other = id.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    expect(await roundTrips('GET', `/api/customers/${other}`)).toMatchObject({ status: 404, roundTrips: 1 });
  });

  it('POST, PATCH, DELETE: the key, then one statement', async () => {
    const created = await roundTrips('POST', '/api/customers', newCustomer());
    expect(created).toEqual({ status: 201, roundTrips: 2 });
    const replayed = { 'idempotency-key': 'round-trips-1' };
    const body = newCustomer();
    expect(await roundTrips('POST', '/api/customers', body, replayed)).toEqual({ status: 201, roundTrips: 2 });
    expect(await roundTrips('POST', '/api/customers', body, replayed)).toEqual({ status: 201, roundTrips: 2 });
    expect(await roundTrips('PATCH', `/api/customers/${id}`, { status: 'suspended', company_name: null })).toEqual({ status: 200, roundTrips: 2 });
    expect(await roundTrips('DELETE', `/api/customers/${id}`)).toEqual({ status: 204, roundTrips: 2 });
  });

  it('LIST: one (the key and the page in one statement), first page, next page, filtered or empty', async () => {
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    const first = await server.call('GET', '/api/customers?limit=1', { key: seller.key });
    expect(first.json).toMatchObject({ has_more: true });
    expect(await roundTrips('GET', '/api/customers?limit=1')).toEqual({ status: 200, roundTrips: 1 });
    const next = `/api/customers?limit=1&cursor=${first.json.next_cursor}`;
    expect(await roundTrips('GET', next)).toEqual({ status: 200, roundTrips: 1 });
    expect(await roundTrips('GET', '/api/customers?status=suspended&email=nobody@example.com')).toEqual({ status: 200, roundTrips: 1 });
  });

  it('LIST with an invalid query asks for the key only (401 before 400)', async () => {
    expect(await roundTrips('GET', '/api/customers?limit=500')).toEqual({ status: 400, roundTrips: 1 });
  });

  it('a malformed id asks for the key only (401 before 404)', async () => {
    expect(await roundTrips('GET', '/api/customers/42')).toEqual({ status: 404, roundTrips: 1 });
  });
});
