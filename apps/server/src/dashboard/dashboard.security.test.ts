import { LATEST_API_VERSION } from '@customers-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { postLogin, rawCall, sameOrigin, signIn } from './dashboard-test-helpers.js';
import { createLoginLink } from './login-links.js';

const HOUR = 3_600_000;
const NOT_SIGNED_IN = errorBody('Unauthorized', /^Sign in to the dashboard first/);

describe.each(DIALECTS)('dashboard sessions and CSRF on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let offsetMs = 0;

  beforeAll(async () => {
    server = await startTestServer(dialect, { now: () => new Date(Date.now() + offsetMs) });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });
  const at = () => new Date(Date.now() + offsetMs);

  describe('login links', () => {
    it('sign in once: HttpOnly, SameSite=Strict cookie for /dashboard, then the link is used up', async () => {
      const { token } = await createLoginLink(server.handle, seller.sellerId);
      const path = `/dashboard/login?token=${token}`;
      // Opening the link (GET) only shows the sign-in form; link scanners cannot use it up.
      expect((await server.call('GET', path)).status).toBe(200);
      const first = await postLogin(server, token);
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/dashboard/settings/api-keys');
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^dashboard_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; Max-Age=43200; HttpOnly; SameSite=Strict$/);
      const again = await postLogin(server, token);
      expect(again.status).toBe(401);
      expect(again.headers.get('set-cookie')).toBeNull();
      expect(again.text).toContain('This sign-in link cannot be used');
    });

    it('refuses expired, unknown and cross-origin uses (a refused cross-origin POST does not use the link up)', async () => {
      const { token } = await createLoginLink(server.handle, seller.sellerId, new Date(at().getTime() - 16 * 60_000));
      expect((await postLogin(server, token)).status).toBe(401);
      expect((await postLogin(server, 'x'.repeat(43))).status).toBe(401);
      expect((await rawCall(server, 'POST', '/dashboard/login', sameOrigin(server))).status).toBe(401);

      const fresh = await createLoginLink(server.handle, seller.sellerId);
      expect((await postLogin(server, fresh.token, { origin: 'https://evil.example' })).status).toBe(403);
      expect((await postLogin(server, fresh.token, {})).status).toBe(403);
      expect((await postLogin(server, fresh.token)).status).toBe(303);
    });
  });

  describe('sessions', () => {
    it('a session reads the account; no cookie or an unknown one is 401 in the error shape', async () => {
      const cookie = await signIn(server, seller.sellerId);
      const account = await server.call('GET', '/dashboard/api/account', { headers: { cookie } });
      expect(account.status).toBe(200);
      expect(account.json).toEqual({
        seller: { id: seller.sellerId, name: 'Test seller' },
        plan: { name: 'starter', customer_limit: 100 },
        customers_used: 0,
        session_expires_at: expect.any(String),
        api_version: LATEST_API_VERSION,
        api_versions_available: [],
      });
      const variants: Record<string, string>[] = [{}, { cookie: `dashboard_session=${'A'.repeat(43)}` }, { cookie: 'dashboard_session=nope' }];
      for (const headers of variants) {
        const refused = await server.call('GET', '/dashboard/api/keys', { headers });
        expect(refused.status).toBe(401);
        expect(refused.json).toEqual(NOT_SIGNED_IN);
      }
    });

    it('ends after 30 idle minutes, and after 12 hours however active', async () => {
      const idle = await signIn(server, seller.sellerId);
      const cookie = await signIn(server, seller.sellerId);
      try {
        for (let minutes = 29; minutes < 12 * 60; minutes += 29) {
          offsetMs = minutes * 60_000;
          expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).status, `${minutes} min`).toBe(200);
        }
        const idleOut = await server.call('GET', '/dashboard/api/keys', { headers: { cookie: idle } });
        expect(idleOut.status).toBe(401);
        expect(idleOut.json).toEqual(NOT_SIGNED_IN);
        offsetMs = 12 * HOUR + 1000;
        const expired = await server.call('GET', '/dashboard/api/keys', { headers: { cookie } });
        expect(expired.status).toBe(401);
        expect(expired.json).toEqual(NOT_SIGNED_IN);
        expect((await server.call('GET', '/dashboard/settings/api-keys', { headers: { cookie } })).status).toBe(401);
      } finally {
        offsetMs = 0;
      }
    });

    it('a page load counts as activity: the keys page keeps a session alive', async () => {
      const cookie = await signIn(server, seller.sellerId);
      try {
        offsetMs = 20 * 60_000;
        expect((await rawCall(server, 'GET', '/dashboard/settings/api-keys', { cookie })).status).toBe(200);
        offsetMs = 45 * 60_000;
        expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).status).toBe(200);
        offsetMs = 76 * 60_000;
        expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).status).toBe(401);
      } finally {
        offsetMs = 0;
      }
    });

    it('sign-out ends the session for good and clears the cookie', async () => {
      const cookie = await signIn(server, seller.sellerId);
      const other = await signIn(server, seller.sellerId);
      const out = await server.call('DELETE', '/dashboard/api/session', { headers: { cookie, ...sameOrigin(server) } });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^dashboard_session=; Path=\/dashboard; Max-Age=0; HttpOnly; SameSite=Strict$/);
      expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).json).toEqual(NOT_SIGNED_IN);
      expect((await rawCall(server, 'GET', '/dashboard', { cookie })).status).toBe(401);
      // Only that session: another sign-in of the same seller goes on.
      expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie: other } })).status).toBe(200);
    });
  });

  describe('CSRF', () => {
    it('refuses state-changing requests from another origin or without Origin/Referer, even with a valid cookie', async () => {
      const cookie = await signIn(server, seller.sellerId);
      const create = (headers: Record<string, string>) =>
        server.call('POST', '/dashboard/api/keys', { headers: { cookie, ...headers }, body: { name: 'csrf' } });
      const refused = errorBody('Forbidden', /^Cross-origin request refused/);
      const variants: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { referer: 'https://evil.example/page' },
        { origin: server.url.replace('127.0.0.1', 'localhost') },
        // Same host and port, another scheme: another origin.
        { origin: server.url.replace('http:', 'https:') },
        // Forwarded headers name the browser's origin only when the operator trusts a proxy (not here).
        { origin: 'https://dashboard.example.com', 'x-forwarded-host': 'dashboard.example.com', 'x-forwarded-proto': 'https' },
        {},
      ];
      for (const headers of variants) {
        const response = await create(headers);
        expect(response.status, JSON.stringify(headers)).toBe(403);
        expect(response.json).toEqual(refused);
      }
      const keys = (await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).json.keys;
      expect(keys.filter((k: { name: string }) => k.name === 'csrf')).toHaveLength(0);

      expect((await create({ referer: `${server.url}/dashboard/settings/api-keys` })).status).toBe(201);
      const created = await create(sameOrigin(server));
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      for (const [method, path] of [['POST', `/dashboard/api/keys/${id}/revoke`], ['POST', `/dashboard/api/keys/${id}/roll`], ['DELETE', `/dashboard/api/keys/${id}`], ['DELETE', '/dashboard/api/session']]) {
        const body = path!.endsWith('/roll') ? { overlap: '1h' } : undefined;
        const response = await server.call(method!, path!, { headers: { cookie, origin: 'https://evil.example' }, body });
        expect(response.status, `${method} ${path}`).toBe(403);
      }
      expect((await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).status).toBe(200);
    });
  });

  describe('API keys and cookies do not mix', () => {
    it('the dashboard refuses API keys, alone or next to a valid cookie', async () => {
      const cookie = await signIn(server, seller.sellerId);
      const apiKeyRefused = errorBody('Unauthorized', 'The dashboard does not accept API keys; sign in with a login link instead');
      const variants: Record<string, string>[] = [
        { 'x-api-key': seller.key },
        { authorization: `Bearer ${seller.key}` },
        { 'x-api-key': seller.key, cookie },
      ];
      for (const headers of variants) {
        const response = await server.call('GET', '/dashboard/api/keys', { headers });
        expect(response.status).toBe(401);
        expect(response.json).toEqual(apiKeyRefused);
      }
      const post = await server.call('POST', '/dashboard/api/keys', { key: seller.key, headers: sameOrigin(server), body: { name: 'x' } });
      expect(post.json).toEqual(apiKeyRefused);
      expect((await server.call('GET', '/dashboard/settings/api-keys', { key: seller.key })).status).toBe(401);
    });

    it('the public API refuses the dashboard cookie', async () => {
      const cookie = await signIn(server, seller.sellerId);
      const created = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
      for (const [method, path] of [['GET', `/api/customers/${created.json.id}`], ['POST', '/api/customers']]) {
        const response = await server.call(method!, path!, {
          headers: { cookie, ...sameOrigin(server) },
          ...(method === 'POST' ? { body: newCustomer() } : {}),
        });
        expect(response.status).toBe(401);
        expect(response.json).toEqual(
          errorBody('Unauthorized', 'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token'),
        );
      }
    });
  });

  describe('tenancy', () => {
    it("a seller can neither see, revoke nor delete another seller's keys", async () => {
      const other = await server.seller();
      const cookie = await signIn(server, seller.sellerId);
      const keys = (await server.call('GET', '/dashboard/api/keys', { headers: { cookie } })).json.keys;
      expect(keys.map((k: { id: string }) => k.id)).not.toContain(other.keyId);
      const notFound = errorBody('Not Found', 'API key not found');
      for (const [method, path] of [['POST', `/dashboard/api/keys/${other.keyId}/revoke`], ['DELETE', `/dashboard/api/keys/${other.keyId}`], ['DELETE', '/dashboard/api/keys/not-a-uuid']]) {
        const response = await server.call(method!, path!, { headers: { cookie, ...sameOrigin(server) } });
        expect(response.status).toBe(404);
        expect(response.json).toEqual(notFound);
      }
      const roll = await server.call('POST', `/dashboard/api/keys/${other.keyId}/roll`, { headers: { cookie, ...sameOrigin(server) }, body: { overlap: '1h' } });
      expect(roll.status).toBe(404);
      expect(roll.json).toEqual(notFound);
      expect((await server.call('GET', `/api/customers/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, { key: other.key })).status).toBe(404);
      expect((await server.call('POST', '/api/customers', { key: other.key, body: newCustomer() })).status).toBe(201);
    });
  });
});
