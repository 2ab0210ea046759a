import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn } from './dashboard-test-helpers.js';

const NOT_FOUND = errorBody('Not Found', 'Webhook endpoint not found');

describe.each(DIALECTS)('dashboard webhooks: tenancy, CSRF, keys and logs on %s', (dialect) => {
  let server: TestServer;
  let owner: TestSeller;
  let stranger: TestSeller;
  let ownerCookie: string;
  let strangerCookie: string;
  const logLines: string[] = [];
  const as = (cookie: string, extra: Record<string, string> = sameOrigin(server)) =>
    (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...extra }, body });
  /** Everything the owner's endpoint rows and deliveries hold, to show that a refused request changed nothing. */
  const snapshot = async () =>
    JSON.stringify([
      await server.handle.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute(),
      await server.handle.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
      await server.handle.db.selectFrom('customer_changes').select(['id', 'event_id']).orderBy('id').execute(),
      await server.handle.db.selectFrom('audit_log').select(['id', 'action']).orderBy('id').execute(),
    ]);

  beforeAll(async () => {
    const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
    server = await startTestServer(dialect, { logger: createLogger('trace', sink) });
    owner = await server.seller();
    stranger = await server.seller();
    ownerCookie = await signIn(server, owner.sellerId);
    strangerCookie = await signIn(server, stranger.sellerId);
  });
  afterAll(async () => {
    await server.close();
  });

  it("another seller's endpoint and its deliveries answer exactly like missing ones, and stay untouched", async () => {
    const { json: endpoint } = await as(ownerCookie)('POST', '/webhooks', { url: 'https://owner.example.com/hooks' });
    await server.call('POST', '/api/customers', { key: owner.key, body: newCustomer() });
    const eventId = (await as(ownerCookie)('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries[0].event_id as string;
    const { json: strangerEndpoint } = await as(strangerCookie)('POST', '/webhooks', { url: 'https://stranger.example.com/hooks' });
    expect((await as(strangerCookie)('GET', '/webhooks')).json.endpoints.map((e: { id: string }) => e.id)).toEqual([strangerEndpoint.id]);

    const before = await snapshot();
    const missing = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const asStranger = as(strangerCookie);
    for (const id of [endpoint.id, missing, 'not-a-uuid']) {
      const answers = [
        await asStranger('DELETE', `/webhooks/${id}`),
        await asStranger('POST', `/webhooks/${id}/rotate-secret`),
        await asStranger('GET', `/webhooks/${id}/deliveries`),
        await asStranger('POST', `/webhooks/${id}/deliveries/${eventId}/resend`),
        await asStranger('POST', `/webhooks/${id}/test`),
        await asStranger('POST', `/webhooks/${id}/enable`),
        await asStranger('GET', `/webhooks/${id}`),
        await asStranger('PATCH', `/webhooks/${id}`, { description: 'taken over' }),
        await asStranger('POST', `/webhooks/${id}/disable`),
        await asStranger('POST', `/webhooks/${id}/reveal-secret`),
        await asStranger('POST', `/webhooks/${id}/resend-failed`, { since: '2020-01-01T00:00:00Z' }),
        await asStranger('GET', `/webhooks/${id}/resend-failed?since=2020-01-01T00:00:00Z`),
        await asStranger('GET', `/webhooks/${id}/deliveries/${eventId}`),
        await asStranger('GET', `/webhooks/${id}/test`),
      ];
      for (const answer of answers) {
        expect(answer.status, id).toBe(404);
        expect(answer.json).toEqual(NOT_FOUND);
      }
    }
    // Nor through the stranger's own endpoint: the owner's event is not one of its deliveries.
    expect((await asStranger('POST', `/webhooks/${strangerEndpoint.id}/deliveries/${eventId}/resend`)).json).toEqual(NOT_FOUND);
    expect((await asStranger('GET', `/webhooks/${strangerEndpoint.id}/deliveries/${eventId}`)).json).toEqual(NOT_FOUND);
    expect((await asStranger('GET', `/webhooks/${strangerEndpoint.id}/deliveries?event_id=${eventId}`)).json).toEqual({ deliveries: [], next_cursor: null });
    expect(await snapshot()).toBe(before);
  });

  it('refuses changes from another origin or without Origin/Referer, before looking at anything', async () => {
    const { json: endpoint } = await as(ownerCookie)('POST', '/webhooks', { url: 'https://csrf.example.com/hooks' });
    const before = await snapshot();
    const refused = errorBody('Forbidden', /^Cross-origin request refused/);
    for (const headers of [{ origin: 'https://evil.example' }, { referer: 'https://evil.example/x' }, {}] as Record<string, string>[]) {
      const call = as(ownerCookie, headers);
      const answers = [
        await call('POST', '/webhooks', { url: 'https://evil.example/steal' }),
        await call('DELETE', `/webhooks/${endpoint.id}`),
        await call('POST', `/webhooks/${endpoint.id}/rotate-secret`),
        await call('POST', `/webhooks/${endpoint.id}/test`),
        await call('POST', `/webhooks/${endpoint.id}/deliveries/evt_00000000000000000000000000000000/resend`),
        await call('POST', `/webhooks/${endpoint.id}/enable`),
        await call('PATCH', `/webhooks/${endpoint.id}`, { url: 'https://evil.example/steal' }),
        await call('POST', `/webhooks/${endpoint.id}/disable`),
        await call('POST', `/webhooks/${endpoint.id}/reveal-secret`),
        await call('POST', `/webhooks/${endpoint.id}/resend-failed`, { since: '2020-01-01T00:00:00Z' }),
      ];
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.json).toEqual(refused);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses API keys and requests without a session', async () => {
    const apiKeyRefused = errorBody('Unauthorized', 'The dashboard does not accept API keys; sign in with a login link instead');
    const variants: Record<string, string>[] = [{ 'x-api-key': owner.key }, { authorization: `Bearer ${owner.key}` }, { 'x-api-key': owner.key, cookie: ownerCookie }];
    for (const headers of variants) {
      const listed = await server.call('GET', '/dashboard/api/webhooks', { headers });
      expect(listed.json).toEqual(apiKeyRefused);
      const created = await server.call('POST', '/dashboard/api/webhooks', { headers: { ...headers, ...sameOrigin(server) }, body: { url: 'https://k.example.com' } });
      expect(created.json).toEqual(apiKeyRefused);
    }
    const anonymous = await server.call('POST', '/dashboard/api/webhooks', { headers: sameOrigin(server), body: { url: 'https://k.example.com' } });
    expect(anonymous.status).toBe(401);
    expect((await server.call('GET', '/dashboard/api/webhooks')).status).toBe(401);
    expect(JSON.stringify(await server.handle.db.selectFrom('webhook_endpoints').select('url').execute())).not.toContain('k.example.com');
  });

  it('never logs a secret, even at trace level, nor one revealed', async () => {
    const created = await as(ownerCookie)('POST', '/webhooks', { url: 'https://logs.example.com/hooks' });
    const rotated = await as(ownerCookie)('POST', `/webhooks/${created.json.id}/rotate-secret`);
    expect((await as(ownerCookie)('POST', `/webhooks/${created.json.id}/reveal-secret`)).json.secret).toBe(rotated.json.secret);
    expect(logLines.length).toBeGreaterThan(0);
    const logs = logLines.join('');
    expect(logs).toContain(created.json.id);
    for (const secret of [created.json.secret, rotated.json.secret] as string[]) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
