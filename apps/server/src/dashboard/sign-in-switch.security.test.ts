import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, startTestServer, type TestServer } from '../test/test-server.js';
import { postLogin, rawCall, sameOrigin, signIn } from './dashboard-test-helpers.js';
import { createLoginLink, peekLoginLink } from './login-links.js';

describe.each(DIALECTS)('sign-in links while signed in (login CSRF) on %s', (dialect) => {
  let server: TestServer;
  let victim: { id: string };
  let attacker: { id: string };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    victim = await createSeller(server.handle, { name: 'Victim GmbH', plan: 'starter' });
    attacker = await createSeller(server.handle, { name: 'Attacker <b>&</b> "Co"', plan: 'starter' });
  });
  afterAll(async () => {
    await server.close();
  });

  const accountOf = async (cookie: string) =>
    (await server.call('GET', '/dashboard/api/account', { headers: { cookie } })).json?.seller?.id as string | undefined;
  const cookieOf = (response: { headers: Headers }) => (response.headers.get('set-cookie') ?? '').split(';', 1)[0]!;

  it("does not switch a signed-in seller into another seller's account when the page submits itself", async () => {
    const cookie = await signIn(server, victim.id);
    const { token } = await createLoginLink(server.handle, attacker.id);
    // What the sign-in page's script posts: an empty form, same origin, with the victim's cookie.
    const response = await postLogin(server, token, { ...sameOrigin(server), cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    // Both accounts are named (escaped), and the form switches only with the link's seller id.
    expect(response.text).toContain('Victim GmbH');
    expect(response.text).toContain(victim.id);
    expect(response.text).toContain('Attacker &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;');
    expect(response.text).not.toContain('<b>&</b>');
    expect(response.text).toContain(`<input type="hidden" name="switch_to" value="${attacker.id}">`);
    expect(response.text).not.toMatch(/<script/);
    // Nothing changed: still the victim, and the link is still unused.
    expect(await accountOf(cookie)).toBe(victim.id);
    expect(await peekLoginLink(server.handle, token)).toBe(attacker.id);
  });

  it('switches after the explicit confirmation: the old session ends, the new one is the link seller', async () => {
    const cookie = await signIn(server, victim.id);
    const { token } = await createLoginLink(server.handle, attacker.id);
    const wrongId = await postLogin(server, token, { ...sameOrigin(server), cookie }, { switch_to: victim.id });
    expect(wrongId.status).toBe(200);
    expect(wrongId.headers.get('set-cookie')).toBeNull();

    const confirmed = await postLogin(server, token, { ...sameOrigin(server), cookie }, { switch_to: attacker.id });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/dashboard/settings/api-keys');
    expect(await accountOf(cookieOf(confirmed))).toBe(attacker.id);
    expect(await accountOf(cookie)).toBeUndefined();
    expect((await postLogin(server, token, sameOrigin(server))).status).toBe(401);
  });

  it('refuses the confirmation from another origin or without one, like every dashboard form', async () => {
    const cookie = await signIn(server, victim.id);
    const { token } = await createLoginLink(server.handle, attacker.id);
    for (const origin of [{ origin: 'https://evil.example' }, { origin: 'null' }, {}] as Record<string, string>[]) {
      const response = await postLogin(server, token, { ...origin, cookie }, { switch_to: attacker.id });
      expect(response.status, JSON.stringify(origin)).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect(await accountOf(cookie)).toBe(victim.id);
    expect(await peekLoginLink(server.handle, token)).toBe(attacker.id);
  });

  it('without a session, shows "Sign in as NAME" and signs in only on the click that names the seller', async () => {
    const { token } = await createLoginLink(server.handle, attacker.id);
    const shown = await rawCall(server, 'GET', `/dashboard/login?token=${token}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shown.headers.get('cache-control')).toBe('no-store');
    expect(shown.text).toContain('Sign in as Attacker &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;');
    expect(shown.text).toContain(attacker.id);
    expect(shown.text).not.toContain('<b>&</b>');
    expect(shown.text).toContain(`<input type="hidden" name="sign_in_as" value="${attacker.id}">`);
    // Nothing submits it but a click: no script on the page at all.
    expect(shown.text).not.toMatch(/<script/);
    // What a page that submits itself would send (an empty form, or another seller's id) signs nobody in.
    for (const form of [{}, { sign_in_as: victim.id }, { sign_in_as: '' }] as Record<string, string>[]) {
      const response = await postLogin(server, token, sameOrigin(server), form);
      expect(response.status, JSON.stringify(form)).toBe(200);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(response.text).toContain(`<input type="hidden" name="sign_in_as" value="${attacker.id}">`);
    }
    expect(await peekLoginLink(server.handle, token)).toBe(attacker.id);
    const clicked = await postLogin(server, token, sameOrigin(server), { sign_in_as: attacker.id });
    expect(clicked.status).toBe(303);
    expect(await accountOf(cookieOf(clicked))).toBe(attacker.id);
  });

  it("signs in at once with a session of the link's own seller; an expired session counts as none", async () => {
    const cookie = await signIn(server, victim.id);
    const own = await createLoginLink(server.handle, victim.id);
    const again = await postLogin(server, own.token, { ...sameOrigin(server), cookie }, {});
    expect(again.status).toBe(303);
    expect(await accountOf(cookieOf(again))).toBe(victim.id);
    const expired = `dashboard_session=${'A'.repeat(43)}`;
    const other = await createLoginLink(server.handle, attacker.id);
    expect((await postLogin(server, other.token, { ...sameOrigin(server), cookie: expired }, {})).status).toBe(200);
    expect((await postLogin(server, other.token, { ...sameOrigin(server), cookie: expired }, { sign_in_as: attacker.id })).status).toBe(303);
  });

  it("opened while signed in as another seller, shows the switch question at once", async () => {
    const cookie = await signIn(server, victim.id);
    const { token } = await createLoginLink(server.handle, attacker.id);
    const shown = await rawCall(server, 'GET', `/dashboard/login?token=${token}`, { cookie });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Switch to another account?');
    expect(shown.text).toContain(`<input type="hidden" name="switch_to" value="${attacker.id}">`);
    // The sign-in click is not a switch: a session of another seller needs switch_to.
    const signInClick = await postLogin(server, token, { ...sameOrigin(server), cookie }, { sign_in_as: attacker.id });
    expect(signInClick.status).toBe(200);
    expect(signInClick.headers.get('set-cookie')).toBeNull();
    expect(await accountOf(cookie)).toBe(victim.id);
  });

  it('answers an unknown, used or expired link on GET with the failure page, without a database change', async () => {
    const { token } = await createLoginLink(server.handle, attacker.id, new Date(Date.now() - 16 * 60_000));
    expect((await rawCall(server, 'GET', `/dashboard/login?token=${token}`)).status).toBe(401);
    expect((await rawCall(server, 'GET', `/dashboard/login?token=${'x'.repeat(43)}`)).status).toBe(401);
  });

  it('answers an oversized sign-in form with 413 (not 415), without using the link', async () => {
    const { token } = await createLoginLink(server.handle, victim.id);
    const response = await postLogin(server, token, sameOrigin(server), { switch_to: 'x'.repeat(2_000) });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.text)).toEqual(errorBody('Payload Too Large', 'Request body must be at most 1024 bytes'));
    expect(response.headers.get('x-request-id')).toMatch(/^\S+$/);
    expect(await peekLoginLink(server.handle, token)).toBe(victim.id);
    const other = await rawCall(server, 'POST', `/dashboard/login?token=${token}`, { ...sameOrigin(server), 'content-type': 'text/plain' }, 'x');
    expect(other.status).toBe(415);
  });
});
