import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys, revokeApiKey, deleteApiKey } from '../db/api-keys.js';
import { DIALECTS } from '../test/test-database.js';
import { createKeyLookup, sha256Hex } from './auth.js';
import type { KeyUsageRecorder } from './key-usage.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

const MISSING = 'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token';
const INVALID = 'The API key is invalid, revoked or expired';

describe.each(DIALECTS)('authentication on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let clock = new Date();

  beforeAll(async () => {
    server = await startTestServer(dialect, { now: () => clock });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  const operations = (id: string) =>
    [
      ['POST', '/api/customers', newCustomer()],
      ['GET', `/api/customers/${id}`, undefined],
      ['PATCH', `/api/customers/${id}`, { status: 'active' }],
      ['DELETE', `/api/customers/${id}`, undefined],
    ] as const;

  async function expect401(headers: Record<string, string>, message: string) {
    const id = '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
    for (const [method, path, body] of operations(id)) {
      const res = await server.call(method, path, { headers, body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.json).toEqual(errorBody('Unauthorized', message));
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  }

  it('401 for a missing key on every operation, saying how to send one', async () => {
    await expect401({}, MISSING);
    await expect401({ authorization: 'Bearer ' }, MISSING);
  });

  it('401 for malformed and unknown keys, in either header', async () => {
    const unknown = `sk_live_${'A'.repeat(48)}`;
    await expect401({ 'x-api-key': 'nonsense' }, INVALID);
    await expect401({ 'x-api-key': unknown }, INVALID);
    await expect401({ authorization: `Bearer ${unknown}` }, INVALID);
    await expect401({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, MISSING);
    await expect401({ 'x-api-key': `${seller.key}x` }, INVALID);
  });

  it('401 is decided before the body is read (no 413/415 leak to strangers)', async () => {
    const res = await server.call('POST', '/api/customers', { raw: 'x'.repeat(70_000), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(401);
  });

  it('a revoked key stops working at once; a deleted key too', async () => {
    const key = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'to revoke' });
    expect((await server.call('POST', '/api/customers', { key: key.key, body: newCustomer() })).status).toBe(201);
    expect(await revokeApiKey(server.handle, key.id)).toBe(true);
    await expect401({ 'x-api-key': key.key }, INVALID);
    const other = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'to delete' });
    expect(await deleteApiKey(server.handle, other.id)).toBe(true);
    await expect401({ 'x-api-key': other.key }, INVALID);
  });

  it('an expired key is 401, from the instant of expiry', async () => {
    const past = await createApiKey(server.handle, {
      sellerId: seller.sellerId,
      name: 'expired',
      expiresAt: new Date(clock.getTime() - 1000).toISOString(),
    });
    await expect401({ 'x-api-key': past.key }, INVALID);

    const expiresAt = new Date(clock.getTime() + 3_600_000);
    const soon = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'soon', expiresAt: expiresAt.toISOString() });
    const saved = clock;
    try {
      clock = new Date(expiresAt.getTime() - 1);
      expect((await server.call('GET', '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', { key: soon.key })).status).toBe(404);
      clock = expiresAt;
      await expect401({ 'x-api-key': soon.key }, INVALID);
    } finally {
      clock = saved;
    }
  });

  it('the key rules hold for all four kinds: each works, is 401 once revoked or expired, and an unknown one is 401', async () => {
    const missing = '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
    const kinds = [
      { mode: 'live' as const, scopes: null },
      { mode: 'test' as const, scopes: null },
      { mode: 'live' as const, scopes: ['customers:read', 'customers:write'] },
      { mode: 'test' as const, scopes: ['customers:read', 'customers:write'] },
    ];
    for (const kind of kinds) {
      const revoked = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'kind', ...kind });
      expect((await server.call('GET', missing, { key: revoked.key })).status, revoked.prefix).toBe(404);
      await revokeApiKey(server.handle, revoked.id);
      await expect401({ 'x-api-key': revoked.key }, INVALID);
      const expired = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'kind', expiresAt: new Date(clock.getTime() - 1).toISOString(), ...kind });
      await expect401({ authorization: `Bearer ${expired.key}` }, INVALID);
      await expect401({ 'x-api-key': `${revoked.key.slice(0, 8)}${'Q'.repeat(48)}` }, INVALID);
    }
  });

  it('gives the request its seller, key id, mode and scopes, read from the key’s row', async () => {
    const usage = { record: () => {} } as unknown as KeyUsageRecorder;
    const lookup = createKeyLookup({ database: server.handle, usage, now: () => clock });
    const testKey = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'test', mode: 'test' });
    const restricted = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'rk', scopes: ['events:read'] });
    expect(await lookup(sha256Hex(testKey.key))).toMatchObject({ sellerId: seller.sellerId, keyId: testKey.id, mode: 'test', scopes: null });
    expect(await lookup(sha256Hex(restricted.key))).toMatchObject({ sellerId: seller.sellerId, keyId: restricted.id, mode: 'live', scopes: ['events:read'] });
    expect(await lookup(sha256Hex(seller.key))).toMatchObject({ keyId: seller.keyId, mode: 'live', scopes: null });
  });

  it('a restricted key without the scope: 403 after the version header and the key, before the body is read; nothing stored', async () => {
    const reader = await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'reader', scopes: ['customers:read'] });
    const count = async () => (await server.handle.db.selectFrom('customers').select('id').where('seller_id', '=', seller.sellerId).execute()).length;
    const before = await count();
    const badVersion = await server.call('POST', '/api/customers', { key: reader.key, body: newCustomer(), headers: { 'customers-version': 'latest' } });
    expect(badVersion.status).toBe(400);
    for (const options of [{ body: newCustomer() }, { raw: 'x'.repeat(70_000), headers: { 'content-type': 'text/plain' } }, { raw: '{', headers: { 'content-type': 'application/json' } }]) {
      const refused = await server.call('POST', '/api/customers', { key: reader.key, ...options });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual(errorBody('Forbidden', /^This restricted API key lacks the customers:write scope, which createCustomer \(POST \/api\/customers\) needs/));
    }
    expect((await server.call('GET', '/api/customers', { key: reader.key })).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('records last_used_at at most once a minute per key', async () => {
    const own = await server.seller();
    const use = async () => {
      await server.call('GET', '/api/customers/6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', { key: own.key });
      await server.app.drainKeyUsage();
      const [info] = await listApiKeys(server.handle, own.sellerId);
      return info!.last_used_at;
    };
    const saved = clock;
    try {
      const start = new Date('2030-01-01T00:00:00.000Z');
      clock = start;
      expect(await use()).toBe(start.toISOString());
      clock = new Date(start.getTime() + 30_000);
      expect(await use()).toBe(start.toISOString());
      clock = new Date(start.getTime() + 61_000);
      expect(await use()).toBe(clock.toISOString());
    } finally {
      clock = saved;
    }
  });
});
