import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

describe.each(DIALECTS)('dashboard key management API on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown) =>
    server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller({ customerLimit: 5 });
    cookie = await signIn(server, seller.sellerId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates a key shown once, lists it by prefix, and the key works at once', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const created = await call('POST', '/keys', { name: '  Production  ', expires_at: expiresAt });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.any(String),
      name: 'Production',
      prefix: created.json.key.slice(0, 12),
      key: expect.stringMatching(/^sk_live_[A-Za-z0-9]{48}$/),
      created_at: expect.any(String),
      last_used_at: null,
      expires_at: `${expiresAt}T00:00:00.000Z`,
      revoked_at: null,
      status: 'active',
      mode: 'live',
      scopes: null,
    });
    const list = await call('GET', '/keys');
    expect(list.text).not.toContain(created.json.key);
    const listed = list.json.keys.find((k: { id: string }) => k.id === created.json.id);
    expect(listed).toEqual({ ...created.json, key: undefined });
    expect(Object.keys(listed)).not.toContain('key');

    expect((await server.call('POST', '/api/customers', { key: created.json.key, body: newCustomer() })).status).toBe(201);
    await server.app.drainKeyUsage();
    const used = (await call('GET', '/keys')).json.keys.find((k: { id: string }) => k.id === created.json.id);
    expect(used.last_used_at).toEqual(expect.any(String));
    expect((await call('GET', '/account')).json).toMatchObject({ plan: { name: 'starter', customer_limit: 5 }, customers_used: 1 });
  });

  it('creates test and restricted keys (mode, scopes), lists them with both, audited; the key works within its scopes', async () => {
    const created = await call('POST', '/keys', { name: 'Reporting', mode: 'test', scopes: ['events:read', 'customers:read'] });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ key: expect.stringMatching(/^rk_test_[A-Za-z0-9]{48}$/), mode: 'test', scopes: ['customers:read', 'events:read'] });
    const secret = await call('POST', '/keys', { name: 'Test secret', mode: 'test', scopes: null });
    expect(secret.json).toMatchObject({ key: expect.stringMatching(/^sk_test_/), mode: 'test', scopes: null });
    // Listed in the test view (`mode=test`), not in the live one (the default).
    const { keys } = (await call('GET', '/keys?mode=test')).json as { keys: { id: string; mode: string; scopes: string[] | null }[] };
    expect(keys.find((k) => k.id === created.json.id)).toMatchObject({ mode: 'test', scopes: ['customers:read', 'events:read'] });
    expect(keys.find((k) => k.id === secret.json.id)).toMatchObject({ mode: 'test', scopes: null });
    const live = (await call('GET', '/keys')).json as { keys: { id: string; mode: string }[] };
    expect(live.keys.every((k) => k.mode === 'live')).toBe(true);
    expect((await call('GET', '/keys?mode=prod')).json).toEqual(fieldErrorBody('Bad Request', 'mode must be one of live, test'));
    const audit = await server.handle.db.selectFrom('audit_log').select('action').where('target_id', '=', created.json.id).execute();
    expect(audit).toEqual([{ action: 'api_key.created' }]);
    expect((await server.call('GET', '/api/events', { key: created.json.key })).status).toBe(200);
    const refused = await server.call('POST', '/api/customers', { key: created.json.key, body: newCustomer() });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/lacks the customers:write scope, which createCustomer/);
  });

  it('refuses a bad mode or scope with a 400 naming it, storing nothing', async () => {
    const before = (await call('GET', '/keys')).json.keys.length;
    const cases: [unknown, RegExp][] = [
      [{ name: 'x', mode: 'prod' }, /^mode must be one of live, test$|mode/],
      [{ name: 'x', scopes: ['customers:delete'] }, /customers:delete/],
      [{ name: 'x', scopes: [] }, /scopes/],
      [{ name: 'x', scopes: 'customers:read' }, /scopes/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/keys', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toEqual(fieldErrorBody('Bad Request', message));
    }
    expect((await call('GET', '/keys')).json.keys.length).toBe(before);
  });

  it('rejects invalid input with a 400 naming the property', async () => {
    const cases: [unknown, string][] = [
      [{}, 'name is required'],
      [{ name: '   ' }, 'name must not be empty'],
      [{ name: 7 }, 'name must be a string'],
      [{ name: 'x'.repeat(101) }, 'name must be at most 100 characters'],
      [{ name: 'a\nb' }, 'name must not contain control or bidirectional formatting characters'],
      [{ name: 'invoice\u202etxt.exe' }, 'name must not contain control or bidirectional formatting characters'],
      [{ name: 'next\u0085line' }, 'name must not contain control or bidirectional formatting characters'],
      [{ name: 'half \ud83d pair' }, 'name must be valid Unicode text (no unpaired surrogates)'],
      [{ name: 'x', expires_at: '2030-02-30' }, 'expires_at must be an ISO 8601 date or date-time, e.g. 2030-01-31 or 2030-01-31T00:00:00Z'],
      [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at must be an ISO 8601 date or date-time, e.g. 2030-01-31 or 2030-01-31T00:00:00Z'],
      [{ name: 'x', expires_at: '2001-01-01' }, 'expires_at must be in the future'],
      [{ name: 'x', expires_at: 5 }, 'expires_at must be a string'],
      [{ name: 'x', prefix: 'sk_live_' }, 'prefix is not an allowed property'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/keys', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toEqual(fieldErrorBody('Bad Request', message));
    }
    const notJson = await server.call('POST', '/dashboard/api/keys', {
      headers: { cookie, ...sameOrigin(server), 'content-type': 'text/plain' },
      raw: 'name=x',
    });
    expect(notJson.json).toEqual(errorBody('Unsupported Media Type', 'Content-Type must be application/json'));
    expect((await call('POST', '/keys')).json).toEqual(fieldErrorBody('Bad Request', 'body must be a JSON object'));
  });

  it('stores a name exactly as it echoed it', async () => {
    const name = 'Déploiement 🔑 מפתח a\u0301';
    const created = await call('POST', '/keys', { name });
    expect(created.json.name).toBe(name);
    const listed = (await call('GET', '/keys')).json.keys.find((k: { id: string }) => k.id === created.json.id);
    expect(listed.name).toBe(name);
  });

  it('revocation takes effect at once, keeps the first time, and deletion removes the key', async () => {
    const { json: key } = await call('POST', '/keys', { name: 'to revoke' });
    expect((await server.call('POST', '/api/customers', { key: key.key, body: newCustomer() })).status).toBe(201);
    const revoked = await call('POST', `/keys/${key.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ id: key.id, status: 'revoked', revoked_at: expect.any(String) });
    expect((await server.call('POST', '/api/customers', { key: key.key, body: newCustomer() })).status).toBe(401);
    const again = await call('POST', `/keys/${key.id.toUpperCase()}/revoke`);
    expect(again.json.revoked_at).toBe(revoked.json.revoked_at);

    expect((await call('DELETE', `/keys/${key.id}`)).status).toBe(204);
    expect((await call('GET', '/keys')).json.keys.map((k: { id: string }) => k.id)).not.toContain(key.id);
    expect((await call('DELETE', `/keys/${key.id}`)).json).toEqual(errorBody('Not Found', 'API key not found'));
    expect((await call('POST', `/keys/${key.id}/revoke`)).status).toBe(404);
  });
});
