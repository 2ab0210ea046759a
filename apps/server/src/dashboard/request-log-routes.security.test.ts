import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { signIn } from './dashboard-test-helpers.js';

describe.each(DIALECTS)('the Request logs API on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });
  const logs = async (cookie: string, query = '') => {
    const page = await server.call('GET', `/dashboard/api/request-logs${query}`, { headers: { cookie } });
    expect(page.status, page.text).toBe(200);
    return page.json as { request_logs: Record<string, unknown>[]; next_cursor: string | null };
  };

  it("finds a 409's request id, and opens it to its error body and the body it was sent with", async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const body = newCustomer();
    expect((await server.call('POST', '/api/customers', { key: seller.key, body })).status).toBe(201);
    const conflict = await server.call('POST', '/api/customers', { key: seller.key, body });
    expect(conflict.status).toBe(409);
    const requestId = conflict.headers.get('x-request-id')!;
    await server.app.requestLogs!.flush();

    const found = await logs(cookie, `?request_id=${encodeURIComponent(requestId)}`);
    expect(found.request_logs).toHaveLength(1);
    const [row] = found.request_logs;
    expect(row).toMatchObject({ method: 'POST', path: '/api/customers', status: 409, key_id: seller.keyId, key_name: 'test', request_id: requestId, mode: 'live' });
    expect(row!.key_prefix).toMatch(/^sk_live_/);
    expect(row!.api_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const detail = await server.call('GET', `/dashboard/api/request-logs/${row!.id}`, { headers: { cookie } });
    expect(detail.status).toBe(200);
    expect(detail.json.error_body).toEqual(conflict.json);
    expect(detail.json.request_body).toEqual(body);
  });

  it('filters by status class, method, path prefix and key, newest first, a page at a time', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const created = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    await server.call('GET', `/api/customers/${created.json.id}`, { key: seller.key });
    await server.call('GET', '/api/customers/00000000-0000-4000-8000-000000000000', { key: seller.key });
    await server.call('PATCH', `/api/customers/${created.json.id}`, { key: seller.key, body: { status: 'nope' } });
    await server.app.requestLogs!.flush();

    const all = await logs(cookie);
    expect(all.request_logs.map((row) => `${row.method} ${row.status}`)).toEqual(['PATCH 400', 'GET 404', 'GET 200', 'POST 201']);
    expect((await logs(cookie, '?status_class=4xx')).request_logs.map((row) => row.status)).toEqual([400, 404]);
    expect((await logs(cookie, '?method=GET&status_class=2xx')).request_logs).toHaveLength(1);
    expect((await logs(cookie, `?path=${encodeURIComponent(`/api/customers/${created.json.id}`)}`)).request_logs).toHaveLength(2);
    expect((await logs(cookie, `?path=${encodeURIComponent('/api/customers/*')}`)).request_logs).toHaveLength(3);
    expect((await logs(cookie, `?key_id=${seller.keyId}`)).request_logs).toHaveLength(4);
    expect((await logs(cookie, '?key_id=00000000-0000-4000-8000-000000000000')).request_logs).toHaveLength(0);
    expect((await logs(cookie, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).request_logs).toHaveLength(0);
    const first = await logs(cookie, '?limit=3');
    expect(first.request_logs).toHaveLength(3);
    const second = await logs(cookie, `?limit=3&cursor=${first.next_cursor}`);
    expect(second.request_logs.map((row) => row.method)).toEqual(['POST']);
    expect(second.next_cursor).toBeNull();
    const patch = await server.call('GET', `/dashboard/api/request-logs/${all.request_logs[0]!.id}`, { headers: { cookie } });
    expect(patch.json.error_body).toMatchObject({ error: 'Bad Request' });
    expect(patch.json.request_body).toEqual({ status: 'nope' });
  });

  it("never shows another seller's requests: its row is a 404 and it is in no page", async () => {
    const mine = await server.seller();
    const theirs = await server.seller();
    const cookie = await signIn(server, mine.sellerId);
    const theirCall = await server.call('GET', '/api/customers', { key: theirs.key });
    await server.app.requestLogs!.flush();
    const theirCookie = await signIn(server, theirs.sellerId);
    const [theirRow] = (await logs(theirCookie)).request_logs;
    expect(theirRow!.request_id).toBe(theirCall.headers.get('x-request-id'));
    expect((await logs(cookie)).request_logs).toEqual([]);
    expect((await logs(cookie, `?request_id=${theirRow!.request_id}`)).request_logs).toEqual([]);
    // Their key's id filters nothing in: it finds none of their requests (and the key exists, with requests).
    expect((await logs(theirCookie, `?key_id=${theirs.keyId}`)).request_logs).toHaveLength(1);
    expect((await logs(cookie, `?key_id=${theirs.keyId}`)).request_logs).toEqual([]);
    const foreign = await server.call('GET', `/dashboard/api/request-logs/${theirRow!.id}`, { headers: { cookie } });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ error: 'Not Found', message: 'Request log not found' });
    for (const id of ['0', 'abc', '99999999999999999']) {
      expect((await server.call('GET', `/dashboard/api/request-logs/${id}`, { headers: { cookie } })).status).toBe(404);
    }
  });

  it('records no request whose key was refused, and redacts secret-like properties of a body', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    await server.call('GET', '/api/customers', { key: 'sk_live_' + 'x'.repeat(48) });
    await server.call('POST', '/api/webhook_endpoints', { key: seller.key, body: { url: 'http://127.0.0.1/hook', secret: 'whsec_do-not-log', password: 'hunter2' } });
    await server.app.requestLogs!.flush();
    const page = await logs(cookie);
    expect(page.request_logs).toHaveLength(1);
    const detail = await server.call('GET', `/dashboard/api/request-logs/${page.request_logs[0]!.id}`, { headers: { cookie } });
    expect(detail.text).not.toContain('whsec_do-not-log');
    expect(detail.text).not.toContain('hunter2');
    expect(detail.json.request_body).toMatchObject({ secret: '[redacted]', password: '[redacted]' });
  });

  it('refuses malformed filters with a 400 naming them, and needs a session', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    for (const [query, name] of [
      ['status_class=6xx', 'status_class'],
      ['method=get', 'method'],
      ['path=api', 'path'],
      ['key_id=nope', 'key_id'],
      ['mode=sandbox', 'mode'],
      ['since=yesterday', 'since'],
      ['until=2026-11-26', 'until'],
      ['cursor=0', 'cursor'],
      ['limit=101', 'limit'],
      ['colour=blue', 'colour'],
      ['method=GET&method=POST', 'method'],
    ] as const) {
      const refused = await server.call('GET', `/dashboard/api/request-logs?${query}`, { headers: { cookie } });
      expect(refused.status, query).toBe(400);
      expect(refused.json.error).toBe('Bad Request');
      expect(refused.json.message, query).toContain(name);
    }
    expect((await server.call('GET', '/dashboard/api/request-logs')).status).toBe(401);
    expect((await server.call('GET', '/dashboard/api/request-logs', { headers: { 'x-api-key': seller.key } })).status).toBe(401);
  });
});
