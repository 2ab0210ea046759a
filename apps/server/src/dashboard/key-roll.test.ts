// Roll key: a new key now and the old one expiring after the chosen overlap. The server's clock is injected, so
// "after the overlap" is a clock moved forward, never a wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)('rolling an API key on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let clock = new Date();
  const at = (offsetMs: number) => new Date(clock.getTime() + offsetMs);

  beforeAll(async () => {
    server = await startTestServer(dialect, { now: () => clock });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  async function dashboard(method: string, path: string, body?: unknown) {
    const cookie = await signIn(server, seller.sellerId, clock);
    return server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
  }
  const works = async (key: string) => (await server.call('POST', '/api/customers', { key, body: newCustomer() })).status;

  it.each([
    ['1h', HOUR],
    ['24h', 24 * HOUR],
    ['7d', 7 * 24 * HOUR],
  ])('with a %s overlap both keys work until it ends, then the old one is 401', async (overlap, overlapMs) => {
    const { json: old } = await dashboard('POST', '/keys', { name: `Production ${overlap}` });
    const start = clock;
    const rolled = await dashboard('POST', `/keys/${old.id}/roll`, { overlap });
    expect(rolled.status).toBe(201);
    expect(rolled.json.key).toMatchObject({ name: old.name, expires_at: null, status: 'active', key: expect.stringMatching(/^sk_live_/) });
    expect(rolled.json.previous).toMatchObject({ id: old.id, status: 'active', expires_at: new Date(start.getTime() + overlapMs).toISOString() });
    expect(rolled.json.previous).not.toHaveProperty('key');

    clock = new Date(start.getTime() + overlapMs - 1);
    expect(await works(old.key)).toBe(201);
    expect(await works(rolled.json.key.key)).toBe(201);

    clock = new Date(start.getTime() + overlapMs);
    expect(await works(old.key)).toBe(401);
    expect(await works(rolled.json.key.key)).toBe(201);
    const listed = (await dashboard('GET', '/keys')).json.keys.find((key: { id: string }) => key.id === old.id);
    expect(listed.status).toBe('expired');
  });

  it('keeps an earlier expiry the old key already had', async () => {
    const expires = at(2 * 86_400_000).toISOString();
    const { json: old } = await dashboard('POST', '/keys', { name: 'Short-lived', expires_at: expires });
    const rolled = await dashboard('POST', `/keys/${old.id}/roll`, { overlap: '7d' });
    expect(rolled.json.previous.expires_at).toBe(expires);
  });

  it('records the new key and the roll in the audit log, in one transaction', async () => {
    const { json: old } = await dashboard('POST', '/keys', { name: 'Audited' });
    const rolled = await dashboard('POST', `/keys/${old.id}/roll`, { overlap: '1h' });
    const rows = await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 3 });
    expect(rows.slice(0, 2).map((row) => [row.action, row.target_id]).sort()).toEqual(
      [['api_key.created', rolled.json.key.id], ['api_key.rolled', old.id]].sort(),
    );
  });

  it('refuses revoked and expired keys (409), unknown and other sellers\' keys (404), bad input (400), changing nothing', async () => {
    const { json: revoked } = await dashboard('POST', '/keys', { name: 'Revoked' });
    await dashboard('POST', `/keys/${revoked.id}/revoke`);
    const { json: expiring } = await dashboard('POST', '/keys', { name: 'Expiring', expires_at: at(HOUR).toISOString() });
    const other = await server.seller();
    const before = (await dashboard('GET', '/keys')).json.keys.length;
    clock = at(HOUR);

    const notRollable = fieldErrorBody('Conflict', 'API key is revoked or expired; only an active key can be rolled');
    expect((await dashboard('POST', `/keys/${revoked.id}/roll`, { overlap: '1h' })).json).toEqual(notRollable);
    expect((await dashboard('POST', `/keys/${expiring.id}/roll`, { overlap: '1h' })).json).toEqual(notRollable);
    for (const id of [other.keyId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await dashboard('POST', `/keys/${id}/roll`, { overlap: '1h' });
      expect(response.status, id).toBe(404);
      expect(response.json).toEqual(errorBody('Not Found', 'API key not found'));
    }
    const cases: [unknown, string][] = [
      [{}, 'overlap is required'],
      [{ overlap: '2h' }, 'overlap must be one of 1h, 24h, 7d'],
      [{ overlap: 1 }, 'overlap must be one of 1h, 24h, 7d'],
      [{ overlap: '1h', name: 'x' }, 'name is not an allowed property'],
    ];
    for (const [body, message] of cases) {
      expect((await dashboard('POST', `/keys/${seller.keyId}/roll`, body)).json, JSON.stringify(body)).toEqual(fieldErrorBody('Bad Request', message));
    }
    expect((await dashboard('GET', '/keys')).json.keys.length).toBe(before);
    expect(await works(other.key)).toBe(201);
  });

  it('needs a session and a same-origin request', async () => {
    const cookie = await signIn(server, seller.sellerId, clock);
    const path = `/dashboard/api/keys/${seller.keyId}/roll`;
    expect((await server.call('POST', path, { body: { overlap: '1h' }, headers: sameOrigin(server) })).status).toBe(401);
    expect((await server.call('POST', path, { body: { overlap: '1h' }, headers: { cookie, origin: 'https://evil.example' } })).status).toBe(403);
    expect(await works(seller.key)).toBe(201);
    const listed = (await dashboard('GET', '/keys')).json.keys.find((key: { id: string }) => key.id === seller.keyId);
    expect(listed.expires_at).toBeNull();
  });
});
