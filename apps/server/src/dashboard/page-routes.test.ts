import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { rawCall, signIn } from './dashboard-test-helpers.js';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.js';

describe.each(DIALECTS)('dashboard pages and assets on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves every page and asset with a strict CSP and security headers', async () => {
    const cookie = await signIn(server, seller.sellerId);
    const cases: [string, Record<string, string>, number, string][] = [
      ['/dashboard', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/settings/api-keys', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/settings/api-keys', { cookie }, 200, 'text/html; charset=utf-8'],
      ['/dashboard/settings/webhooks', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/settings/webhooks', { cookie }, 200, 'text/html; charset=utf-8'],
      // An endpoint's page: the same page for any id (its script's API call decides; another seller's is a 404 there).
      ['/dashboard/settings/webhooks/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/settings/webhooks/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', { cookie }, 200, 'text/html; charset=utf-8'],
      ['/dashboard/assets/endpoint.js', {}, 200, 'text/javascript; charset=utf-8'],
      ['/dashboard/assets/webhooks.css', {}, 200, 'text/css; charset=utf-8'],
      [`/dashboard/login?token=${'A'.repeat(43)}`, {}, 401, 'text/html; charset=utf-8'], // well-formed, but no such link
      ['/dashboard/login?token=abc', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/login', {}, 401, 'text/html; charset=utf-8'],
      ['/dashboard/assets/dashboard.css', {}, 200, 'text/css; charset=utf-8'],
      ['/dashboard/assets/keys.js', {}, 200, 'text/javascript; charset=utf-8'],
      ['/dashboard/assets/webhooks.js', {}, 200, 'text/javascript; charset=utf-8'],
      ['/dashboard/assets/common.js', {}, 200, 'text/javascript; charset=utf-8'],
      ['/dashboard/assets/icon.svg', {}, 200, 'image/svg+xml'],
      ['/dashboard/api/keys', {}, 401, 'application/json; charset=utf-8'],
      ['/dashboard/api/webhooks', {}, 401, 'application/json; charset=utf-8'],
      // Unknown paths too: the scope's own 404 (a page for page paths, JSON for the API and assets).
      ['/dashboard/nope', {}, 404, 'text/html; charset=utf-8'],
      ['/dashboard/settings/nope', { cookie }, 404, 'text/html; charset=utf-8'],
      ['/dashboard/settings/activity', { cookie }, 200, 'text/html; charset=utf-8'],
      ['/dashboard/api/nope', { cookie }, 404, 'application/json; charset=utf-8'],
      ['/dashboard/assets/nope.js', {}, 404, 'application/json; charset=utf-8'],
    ];
    for (const [path, headers, status, type] of cases) {
      const response = await rawCall(server, 'GET', path, headers);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-request-id'), path).toMatch(/^\S+$/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';/);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('sends a signed-in seller from /dashboard to the keys page; signed-out visitors get the signed-out page', async () => {
    const cookie = await signIn(server, seller.sellerId);
    const home = await rawCall(server, 'GET', '/dashboard', { cookie });
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/dashboard/settings/api-keys');
    expect((await rawCall(server, 'GET', '/dashboard')).text).toContain('You are signed out');
  });

  it('has no inline scripts or styles in its pages, and serves no page or unknown file as an asset', async () => {
    for (const path of ['/dashboard/settings/api-keys', '/dashboard/settings/webhooks', '/dashboard/settings/webhooks/x', `/dashboard/login?token=${'A'.repeat(43)}`, '/dashboard/login', '/dashboard']) {
      const cookie = await signIn(server, seller.sellerId);
      const { text } = await rawCall(server, 'GET', path, { cookie });
      expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
    for (const name of ['keys.html', 'webhooks.html', 'endpoint.html', 'nope.js', '..%2Fpackage.json', '.env']) {
      const response = await rawCall(server, 'GET', `/dashboard/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(JSON.parse(response.text)).toEqual({ error: 'Not Found', message: expect.stringMatching(/^No route matches/) });
    }
  });
});
