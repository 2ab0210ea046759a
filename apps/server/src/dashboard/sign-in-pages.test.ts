// What a seller without a live session sees, and where the next sign-in takes them: the reason the session ended,
// no operator command, the page asked for kept (never an open redirect), a used link's way back, a styled 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { postLogin, rawCall, signIn } from './dashboard-test-helpers.js';
import { createLoginLink } from './login-links.js';
import { SESSION_IDLE_MS, SESSION_TTL_MS } from './sessions.js';

const REASON = /<p id="reason"[^>]*>([^<]*)<\/p>/;

describe.each(DIALECTS)('sign-in pages on %s', (dialect) => {
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

  const reasonOf = (html: string) => REASON.exec(html)?.[1];

  it('says why there is no session: none, signed out, 30 idle minutes, the 12-hour limit, ended', async () => {
    const start = clock;
    const page = (headers: Record<string, string> = {}, path = '/dashboard/settings/api-keys') => rawCall(server, 'GET', path, headers);
    expect(reasonOf((await page()).text)).toBe('The dashboard opens with a one-time sign-in link.');
    expect(reasonOf((await page({}, '/dashboard?reason=signed-out')).text)).toBe('You signed out.');
    expect(reasonOf((await page({}, '/dashboard?reason=%3Cscript%3E')).text)).toBe('The dashboard opens with a one-time sign-in link.');

    const idle = await signIn(server, seller.sellerId, clock);
    clock = new Date(start.getTime() + SESSION_IDLE_MS);
    const idleAnswer = await page({ cookie: idle });
    expect(idleAnswer.status).toBe(401);
    expect(reasonOf(idleAnswer.text)).toBe('Your session ended after 30 minutes without activity.');

    // Kept alive every 29 minutes, a session still ends 12 hours after sign-in.
    const busy = await signIn(server, seller.sellerId, clock);
    const signedInAt = clock.getTime();
    for (let t = signedInAt; t < signedInAt + SESSION_TTL_MS; t += 29 * 60_000) {
      clock = new Date(t);
      expect((await page({ cookie: busy })).status).toBe(200);
    }
    clock = new Date(signedInAt + SESSION_TTL_MS);
    expect(reasonOf((await page({ cookie: busy })).text)).toBe('Your session ended: a session lasts at most 12 hours from sign-in.');

    const ended = await signIn(server, seller.sellerId, clock);
    await rawCall(server, 'DELETE', '/dashboard/api/session', { cookie: ended, origin: server.url });
    expect(reasonOf((await page({ cookie: ended })).text)).toBe('Your session has ended: you signed out in another tab, or it timed out.');
  });

  it('shows sellers no operator command and copy that matches the session rules', async () => {
    const used = await createLoginLink(server.handle, seller.sellerId, clock);
    await postLogin(server, used.token);
    const pages = [
      await rawCall(server, 'GET', '/dashboard'),
      await rawCall(server, 'GET', '/dashboard/settings/webhooks'),
      await rawCall(server, 'GET', `/dashboard/login?token=${used.token}`),
      await rawCall(server, 'GET', '/dashboard/login?token=nope'),
      await rawCall(server, 'GET', '/dashboard/api/keys'),
    ];
    for (const { text } of pages) {
      expect(text).not.toContain('pnpm');
      expect(text).not.toContain('SELLER_ID');
    }
    expect(pages[0]!.text).toContain('A session ends after 30 minutes without activity, 12 hours after sign-in at the latest');
    expect(pages[0]!.text).not.toContain('A session lasts 12 hours');
    expect(pages[2]!.text).toContain('ask the person who runs this service for a new sign-in link');
    expect(JSON.parse(pages[4]!.text).message).toBe('Sign in to the dashboard first: open a new sign-in link (ask the person who runs this service for one)');
  });

  it('keeps the page asked for and opens it after the next sign-in, once', async () => {
    const asked = await rawCall(server, 'GET', '/dashboard/settings/activity?from=mail');
    expect(asked.status).toBe(401);
    const setCookie = asked.headers.get('set-cookie')!;
    expect(setCookie).toBe('dashboard_return_to=%2Fdashboard%2Fsettings%2Factivity%3Ffrom%3Dmail; Path=/dashboard; Max-Age=3600; HttpOnly; SameSite=Strict');
    expect(asked.text).toContain('you will be back on <code>/dashboard/settings/activity?from=mail</code>');
    // /dashboard itself keeps nothing.
    expect((await rawCall(server, 'GET', '/dashboard')).headers.get('set-cookie')).toBeNull();

    const { token } = await createLoginLink(server.handle, seller.sellerId, clock);
    const signedIn = await postLogin(server, token, { origin: server.url, cookie: setCookie.split(';', 1)[0]! });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/dashboard/settings/activity?from=mail');
    const cookies = signedIn.headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[1]).toBe('dashboard_return_to=; Path=/dashboard; Max-Age=0; HttpOnly; SameSite=Strict');
  });

  it("keeps an endpoint's own page too, and says why like every other page", async () => {
    const page = '/dashboard/settings/webhooks/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f?delivery=evt_1';
    const asked = await rawCall(server, 'GET', page);
    expect(asked.status).toBe(401);
    expect(asked.headers.get('set-cookie')).toContain(`dashboard_return_to=${encodeURIComponent(page)};`);
    expect(asked.text).not.toContain('{{');
    expect(reasonOf(asked.text)).toBeTruthy();
  });

  it('never redirects off the dashboard, whatever the cookie says', async () => {
    const hostile = ['https://evil.example/', '//evil.example/dashboard/', '/dashboard/../api/customers', '/\\evil.example', '/dashboard/api/keys', 'javascript:alert(1)'];
    for (const value of hostile) {
      const { token } = await createLoginLink(server.handle, seller.sellerId, clock);
      const response = await postLogin(server, token, { origin: server.url, cookie: `dashboard_return_to=${encodeURIComponent(value)}` });
      expect(response.status, value).toBe(303);
      expect(response.headers.get('location'), value).toBe('/dashboard/settings/api-keys');
    }
  });

  it('offers a browser still signed in the way back from a used link', async () => {
    const { token } = await createLoginLink(server.handle, seller.sellerId, clock);
    const cookie = (await postLogin(server, token)).headers.get('set-cookie')!.split(';', 1)[0]!;
    const again = await rawCall(server, 'GET', `/dashboard/login?token=${token}`, { cookie });
    expect(again.status).toBe(401);
    expect(again.text).toMatch(/<p id="signed-in-note" >You are still signed in as <strong>Test seller<\/strong>/);
    expect(again.text).toContain('<a class="button button-primary" href="/dashboard/settings/api-keys">Back to the dashboard</a>');
    expect(again.text).toContain('<p id="new-link-note" hidden>');
    const signedOut = await rawCall(server, 'GET', `/dashboard/login?token=${token}`);
    expect(signedOut.text).toContain('<p id="signed-in-note" hidden>');
  });

  it('answers unknown page paths with a styled 404 and a way back; the JSON API keeps its JSON 404', async () => {
    for (const path of ['/dashboard/nope', '/dashboard/settings/nope', '/dashboard/settings/api-keys/extra']) {
      const response = await rawCall(server, 'GET', path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.text).toContain('<h1>Page not found</h1>');
      expect(response.text).toContain('href="/dashboard">Back to the dashboard</a>');
      expect(response.text).toContain('/dashboard/assets/dashboard.css');
    }
    const api = await rawCall(server, 'GET', '/dashboard/api/nope');
    expect(api.status).toBe(404);
    expect(JSON.parse(api.text)).toEqual({ error: 'Not Found', message: expect.stringMatching(/^No route matches .*\/dashboard\/api\/nope/) });
  });
});
