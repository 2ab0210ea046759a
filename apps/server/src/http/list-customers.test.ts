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

  it('answers 400 naming the parameter for an instant outside 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z', async () => {
    const range = 'must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';
    for (const [name, value] of [
      ['created_after', '0000-01-01T00:00:00Z'],
      ['created_before', '0000-01-01T00:00:00Z'],
      ['created_after', '0001-01-01T00:00:00+23:59'],
      ['created_before', '9999-12-31T23:59:59-23:59'],
      ['created_before', '9999-12-31T23:59:59.9991Z'],
    ]) {
      const answer = await server.call('GET', `/api/customers?${name}=${encodeURIComponent(value!)}`, { key: seller.key });
      expect({ value, status: answer.status, json: answer.json }).toEqual({ value, status: 400, json: errorBody('Bad Request', `${name} ${range}`) });
    }
  });

  it('compares instants, not their text: the range ends and any offset give the right lists', async () => {
    const all = [...ids].reverse();
    const list = async (query: string) =>
      (await server.call('GET', `/api/customers?${query}`, { key: seller.key })).json.data.map((c: { id: string }) => c.id);
    expect(await list(`created_after=${encodeURIComponent('0001-01-01T00:00:00Z')}`)).toEqual(all);
    expect(await list(`created_before=${encodeURIComponent('9999-12-31T23:59:59.999Z')}`)).toEqual(all);
    expect(await list(`created_before=${encodeURIComponent('9999-12-31T23:59:59+23:59')}`)).toEqual(all);
    expect(await list(`created_after=${encodeURIComponent('0001-01-02T00:00:00+23:59')}`)).toEqual(all);
    const first = (await server.call('GET', `/api/customers/${ids[0]}`, { key: seller.key })).json.created_at as string;
    // The first customer's own instant written with another offset and lower-case separators.
    const shifted = new Date(Date.parse(first) + 5 * 3_600_000).toISOString().replace('Z', '+05:00').replace('T', 't');
    expect(await list(`created_before=${encodeURIComponent(shifted)}`)).toEqual([]);
    expect((await list(`created_after=${encodeURIComponent(shifted)}`)).at(-1)).toBe(ids[0]);
  });

  it('answers 400 naming the parameter for U+0000 in any query parameter', async () => {
    for (const name of ['email', 'cursor', 'status', 'created_after', 'created_before', 'limit']) {
      const answer = await server.call('GET', `/api/customers?${name}=a%00b@x.de`, { key: seller.key });
      expect({ name, status: answer.status, json: answer.json }).toEqual({
        name,
        status: 400,
        json: errorBody('Bad Request', `${name} must not contain U+0000`),
      });
    }
  });

  it('takes limit only as plain decimal digits: any other spelling is 400 naming limit', async () => {
    for (const spelling of ['0x10', '1e1', '%205', '5%20', '+5', '-5', '5.0', '01', '0010', '5_0', '%EF%BC%95', '']) {
      const answer = await server.call('GET', `/api/customers?limit=${spelling}`, { key: seller.key });
      expect({ spelling, status: answer.status, json: answer.json }).toEqual({
        spelling,
        status: 400,
        json: errorBody('Bad Request', /^limit /),
      });
    }
    expect((await server.call('GET', '/api/customers?limit=0', { key: seller.key })).json).toEqual(
      errorBody('Bad Request', 'limit must be at least 1'),
    );
    expect((await server.call('GET', '/api/customers?limit=100', { key: seller.key })).status).toBe(200);
  });
});
