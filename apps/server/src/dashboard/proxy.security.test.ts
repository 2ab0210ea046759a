import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { createLoginLink } from './login-links.js';
import { postLogin, sameOrigin, signIn } from './dashboard-test-helpers.js';

const PROXIED = { 'x-forwarded-host': 'dashboard.example.com', 'x-forwarded-proto': 'https' };

describe('the dashboard behind a reverse proxy', () => {
  let direct: TestServer;
  let proxied: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    direct = await startTestServer('sqlite');
    proxied = await startTestServer('sqlite', { http: { trustProxy: 1 } });
    seller = await proxied.seller();
  });
  afterAll(async () => {
    await Promise.all([direct.close(), proxied.close()]);
  });

  const createKey = (server: TestServer, cookie: string, headers: Record<string, string>) =>
    server.call('POST', '/dashboard/api/keys', { headers: { cookie, ...headers }, body: { name: 'proxied' } });

  it('with --trust-proxy, takes the browser origin (scheme and host) from X-Forwarded-Proto and -Host', async () => {
    const cookie = await signIn(proxied, seller.sellerId);
    expect((await createKey(proxied, cookie, { origin: 'https://dashboard.example.com', ...PROXIED })).status).toBe(201);
    // The scheme must match the forwarded one too, and the forwarded host replaces Host.
    expect((await createKey(proxied, cookie, { origin: 'http://dashboard.example.com', ...PROXIED })).status).toBe(403);
    expect((await createKey(proxied, cookie, { ...sameOrigin(proxied), ...PROXIED })).status).toBe(403);
    expect((await createKey(proxied, cookie, sameOrigin(proxied))).status).toBe(201);
  });

  it('without it, ignores forwarded headers: Host and the socket name the origin', async () => {
    const other = await direct.seller();
    const cookie = await signIn(direct, other.sellerId);
    expect((await createKey(direct, cookie, { origin: 'https://dashboard.example.com', ...PROXIED })).status).toBe(403);
    expect((await createKey(direct, cookie, { ...sameOrigin(direct), ...PROXIED })).status).toBe(201);
  });

  it('marks the session cookie Secure (and sends HSTS) only for HTTPS a trusted proxy reports', async () => {
    const { token } = await createLoginLink(proxied.handle, seller.sellerId);
    const viaProxy = await postLogin(proxied, token, { origin: 'https://dashboard.example.com', ...PROXIED });
    expect(viaProxy.status).toBe(303);
    expect(viaProxy.headers.get('set-cookie')).toMatch(/; Secure$/);
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000');

    const other = await direct.seller();
    const forged = await createLoginLink(direct.handle, other.sellerId);
    const response = await postLogin(direct, forged.token, { ...sameOrigin(direct), 'x-forwarded-proto': 'https' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).not.toMatch(/Secure/);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});
