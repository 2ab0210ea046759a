import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

describe.each(DIALECTS)('GET /api/customers on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
    for (let i = 0; i < 5; i++) {
      const body = newCustomer({ email: i === 2 ? 'ada+list@example.com' : `list${i}.${Date.now()}@example.com`, status: i % 2 ? 'inactive' : 'active' });
      ids.push((await server.call('POST', '/api/customers', { key: seller.key, body })).json.id);
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('pages newest first with an opaque cursor, and no-store', async () => {
    const first = await server.call('GET', '/api/customers?limit=2', { key: seller.key });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.json.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.json.has_more).toBe(true);
    const rest = await server.call('GET', `/api/customers?limit=3&cursor=${first.json.next_cursor}`, { key: seller.key });
    expect(rest.json).toEqual({ data: expect.any(Array), has_more: false, next_cursor: null });
    expect(rest.json.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it('finds by email (percent-encoded +, any case) and filters by status; another seller sees none', async () => {
    const found = await server.call('GET', `/api/customers?email=${encodeURIComponent('ADA+list@example.com')}`, { key: seller.key });
    expect(found.json.data.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
    const inactive = await server.call('GET', '/api/customers?status=inactive', { key: seller.key });
    expect(inactive.json.data.map((c: { id: string }) => c.id)).toEqual([ids[3], ids[1]]);
    const stranger = await server.seller();
    expect((await server.call('GET', '/api/customers', { key: stranger.key })).json).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('answers 400 naming the parameter, and 401 before anything else', async () => {
    const bad = await server.call('GET', '/api/customers?limit=500', { key: seller.key });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual(errorBody('Bad Request', 'limit must be at most 100'));
    const twice = await server.call('GET', '/api/customers?status=active&status=inactive', { key: seller.key });
    expect(twice.json).toEqual(errorBody('Bad Request', 'status must be given at most once'));
    expect((await server.call('GET', '/api/customers?limit=500')).status).toBe(401);
  });
});
