import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSellerKeyLimit, setSellerRateLimit } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';
import { createSellerKey } from './seller-keys.js';

// Keys without bounds (issue 36): a cap on a seller's unexpired keys, the key routes charged to the seller's API
// budget as the webhook routes are, and a paginated key list.

describe.each(DIALECTS)('dashboard key limits on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // The limiter's windows follow a frozen clock: the test, not the machine's speed, decides when a second ends
    // (with the wall clock, a loaded machine let the budget refill between two calls: 201 where 429 was due).
    server = await startTestServer(dialect, { rateLimit: { perSecond: 100, now: () => 1_795_000_000_000 } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedIn({ rateLimit }: { rateLimit: number }) {
    const seller = await server.seller(); // one key already
    await setSellerRateLimit(server.handle, seller.sellerId, rateLimit);
    const cookie = await signIn(server, seller.sellerId);
    const call = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    return { ...seller, cookie, call };
  }
  const stored = async (sellerId: string) => ({
    keys: await server.handle.db.selectFrom('api_keys').select(['id', 'expires_at', 'revoked_at']).where('seller_id', '=', sellerId).orderBy('id').execute(),
    audit: (await server.handle.db.selectFrom('audit_log').select('id').where('seller_id', '=', sellerId).execute()).length,
  });

  it('counts each mode against its own cap: test keys never crowd out live ones, nor live keys test ones', async () => {
    const seller = await server.seller(); // one live key
    await setSellerKeyLimit(server.handle, seller.sellerId, 2);
    const now = new Date();
    const create = (mode: 'live' | 'test', scopes: string[] | null = null) =>
      createSellerKey(server.handle, seller.sellerId, { name: mode, expiresAt: null, mode, scopes }, now);
    expect((await create('live')).key).toMatch(/^sk_live_/);
    await expect(create('live')).rejects.toMatchObject({ status: 403 });
    expect((await create('test')).key).toMatch(/^sk_test_/);
    expect((await create('test', ['customers:read'])).key).toMatch(/^rk_test_/);
    await expect(create('test')).rejects.toMatchObject({ status: 403 });
    await expect(create('live', ['events:read'])).rejects.toMatchObject({ status: 403 });
    const modes = await server.handle.db.selectFrom('api_keys').select('mode').where('seller_id', '=', seller.sellerId).execute();
    expect(modes.map((row) => row.mode).sort()).toEqual(['live', 'live', 'test', 'test']);
  });

  it('refuses a key beyond the seller’s cap of unexpired keys with a 403 naming it, and stores nothing', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    await setSellerKeyLimit(server.handle, seller.sellerId, 3);
    expect((await seller.call('POST', '/keys', { name: 'two' })).status).toBe(201);
    expect((await seller.call('POST', '/keys', { name: 'three' })).status).toBe(201);
    const before = await stored(seller.sellerId);
    const refused = await seller.call('POST', '/keys', { name: 'four' });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(errorBody('Forbidden', /^API key limit reached: this account may have at most 3 unexpired API keys;/));
    expect(await stored(seller.sellerId)).toEqual(before);
    // A roll may go one over (the old key expires after the overlap), never two.
    const { keys } = (await seller.call('GET', '/keys')).json as { keys: { id: string }[] };
    expect((await seller.call('POST', `/keys/${keys[1]!.id}/roll`, { overlap: '1h' })).status).toBe(201);
    const afterRoll = await stored(seller.sellerId);
    const second = await seller.call('POST', `/keys/${keys[2]!.id}/roll`, { overlap: '1h' });
    expect(second.status).toBe(403);
    expect(second.json.message).toMatch(/at most 3 unexpired API keys/);
    expect(await stored(seller.sellerId)).toEqual(afterRoll);
    // Revoked keys still count; deleting one makes room.
    expect((await seller.call('POST', `/keys/${keys[2]!.id}/revoke`)).status).toBe(200);
    expect((await seller.call('POST', '/keys', { name: 'four' })).status).toBe(403);
    expect((await seller.call('DELETE', `/keys/${keys[2]!.id}`)).status).toBe(204);
    expect((await seller.call('DELETE', `/keys/${keys[1]!.id}`)).status).toBe(204);
    expect((await seller.call('POST', '/keys', { name: 'four' })).status).toBe(201);
  });

  it('counts concurrent creates at the cap exactly', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    await setSellerKeyLimit(server.handle, seller.sellerId, 4);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => seller.call('POST', '/keys', { name: `race ${i}` })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    expect((await stored(seller.sellerId)).keys.length).toBe(4);
  });

  it('takes key changes and the API-version move from the seller’s API budget: 429 with Retry-After, nothing changed', async () => {
    const seller = await signedIn({ rateLimit: 3 });
    // One budget with the API: a key (1), two customers (2, 3).
    const created = await seller.call('POST', '/keys', { name: 'budget' });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit')).toMatch(/"seller";r=2;t=1/);
    expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(201);
    expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(201);
    const before = await stored(seller.sellerId);
    const spent = [
      await seller.call('POST', '/keys', { name: 'more' }),
      await seller.call('POST', `/keys/${created.json.id}/roll`, { overlap: '1h' }),
      await seller.call('POST', `/keys/${created.json.id}/revoke`),
      await seller.call('DELETE', `/keys/${created.json.id}`),
      await seller.call('PATCH', '/account/api-version', { api_version: '2099-01-01' }),
    ];
    for (const answer of spent) {
      expect(answer.status).toBe(429);
      expect(answer.json).toEqual(errorBody('Too Many Requests', /^Too many requests; retry after 1 second/));
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await stored(seller.sellerId)).toEqual(before);
    // Reading is free: the list still answers.
    expect((await seller.call('GET', '/keys')).status).toBe(200);
  });

  it('lists keys in pages, oldest first, with a cursor to the next; a bad limit or cursor is a 400 naming it', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    for (let i = 0; i < 4; i++) expect((await seller.call('POST', '/keys', { name: `page ${i}` })).status).toBe(201);
    const all = (await seller.call('GET', '/keys')).json as { keys: { id: string }[]; next_cursor: string | null };
    expect(all.keys).toHaveLength(5);
    expect(all.next_cursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await seller.call('GET', `/keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json as typeof all;
      expect(page.keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.keys.map((key) => key.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.keys.map((key) => key.id));
    expect((await seller.call('GET', '/keys?limit=101')).json).toEqual(fieldErrorBody('Bad Request', /^limit must be a whole number from 1 to 100$/));
    expect((await seller.call('GET', '/keys?cursor=nope')).json).toEqual(fieldErrorBody('Bad Request', /^cursor is not valid/));
  });
});
