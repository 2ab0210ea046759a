// The dashboard's test/live switch on the server: the `mode` query parameter (DataMode) makes the session's
// seller and that mode the tenant of the keys, webhooks, endpoint and activity routes, in both directions, and
// DELETE /dashboard/api/test_data wipes test data only, audited as the public API's wipe is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

const NOT_FOUND = { error: 'Not Found', message: 'Webhook endpoint not found' };

describe.each(DIALECTS)('the dashboard test/live switch on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A signed-in seller with a live and a test endpoint made from the dashboard, one in each mode's view. */
  async function sellerWithBothModes() {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const as = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    const live = await as('POST', '/webhooks', { url: 'https://crm.example.com/live' });
    const test = await as('POST', '/webhooks?mode=test', { url: 'https://crm.example.com/test' });
    expect([live.status, test.status]).toEqual([201, 201]);
    return { seller, cookie, as, live: live.json.id as string, test: test.json.id as string };
  }

  it('lists and creates endpoints in the page mode only; the same URL may be used once in each mode', async () => {
    const { seller, as, live, test } = await sellerWithBothModes();
    expect((await as('GET', '/webhooks')).json.endpoints.map((e: { id: string }) => e.id)).toEqual([live]);
    expect((await as('GET', '/webhooks?mode=live')).json.endpoints.map((e: { id: string }) => e.id)).toEqual([live]);
    expect((await as('GET', '/webhooks?mode=test')).json.endpoints.map((e: { id: string }) => e.id)).toEqual([test]);
    // The test endpoint is the test keys' own: listed by the public API for a test key, never for a live one.
    const testKey = await server.key(seller.sellerId, { mode: 'test' });
    const byTestKey = await server.call('GET', '/api/webhook_endpoints', { key: testKey.key });
    expect(byTestKey.json.data.map((e: { id: string }) => e.id)).toEqual([test]);
    const byLiveKey = await server.call('GET', '/api/webhook_endpoints', { key: seller.key });
    expect(byLiveKey.json.data.map((e: { id: string }) => e.id)).toEqual([live]);
    // URLs are unique per mode: the live URL is free in test mode, taken in live mode.
    expect((await as('POST', '/webhooks?mode=test', { url: 'https://crm.example.com/live' })).status).toBe(201);
    expect((await as('POST', '/webhooks', { url: 'https://crm.example.com/live' })).status).toBe(409);
  });

  it("answers 404 for every route of one endpoint in the other mode's view, both directions, changing nothing", async () => {
    const { as, live, test } = await sellerWithBothModes();
    for (const [id, other] of [[live, 'test'], [test, 'live']] as const) {
      const q = `?mode=${other}`;
      const attempts: [string, string, unknown?][] = [
        ['GET', `/webhooks/${id}${q}`],
        ['PATCH', `/webhooks/${id}${q}`, { description: 'changed' }],
        ['POST', `/webhooks/${id}/disable${q}`],
        ['POST', `/webhooks/${id}/enable${q}`],
        ['POST', `/webhooks/${id}/reveal-secret${q}`],
        ['POST', `/webhooks/${id}/rotate-secret${q}`],
        ['GET', `/webhooks/${id}/deliveries${q}`],
        ['GET', `/webhooks/${id}/test${q}`],
        ['POST', `/webhooks/${id}/test${q}`],
        ['POST', `/webhooks/${id}/resend-failed${q}`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
        ['GET', `/webhooks/${id}/resend-failed${q}&since=2020-01-01T00:00:00Z`],
        ['DELETE', `/webhooks/${id}${q}`],
      ];
      for (const [method, path, body] of attempts) {
        const answer = await as(method, path, body);
        expect([answer.status, answer.json], `${method} ${path}`).toEqual([404, NOT_FOUND]);
      }
      // Still there, unchanged, in its own mode's view.
      const own = await as('GET', `/webhooks/${id}?mode=${other === 'test' ? 'live' : 'test'}`);
      expect(own.status).toBe(200);
      expect(own.json).toMatchObject({ id, description: '', disabled: false });
    }
  });

  it('runs the routes of one endpoint in its own mode; a test event of a test endpoint is a test event', async () => {
    const { as, test } = await sellerWithBothModes();
    expect((await as('PATCH', `/webhooks/${test}?mode=test`, { description: 'Staging' })).json).toMatchObject({ description: 'Staging' });
    const preview = await as('GET', `/webhooks/${test}/test?mode=test`);
    expect(preview.status).toBe(200);
    expect(preview.json.livemode).toBe(false);
    expect((await as('POST', `/webhooks/${test}/test?mode=test`)).status).toBe(202);
    const deliveries = await as('GET', `/webhooks/${test}/deliveries?mode=test`);
    expect(deliveries.json.deliveries).toHaveLength(1);
    const audit = await server.handle.db.selectFrom('audit_log').select(['action', 'mode']).where('target_id', '=', test).orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'webhook_endpoint.created', mode: 'test' },
      { action: 'webhook_endpoint.updated', mode: 'test' },
      { action: 'webhook_endpoint.test_sent', mode: 'test' },
    ]);
  });

  it("lists one mode's activity: test rows in the test view, live rows in the live view", async () => {
    const { as, live, test } = await sellerWithBothModes();
    const actions = async (query: string) =>
      (await as('GET', `/activity${query}`)).json.entries.map((e: { action: string; target_id: string | null }) => [e.action, e.target_id]);
    expect(await actions('')).toEqual([['webhook_endpoint.created', live], ['sign_in.used', null]]);
    expect(await actions('?mode=test')).toEqual([['webhook_endpoint.created', test]]);
  });

  it('lists keys of the page mode; a bad mode is a 400 naming it on every route that takes it', async () => {
    const { seller, as } = await sellerWithBothModes();
    const testKey = await as('POST', '/keys', { name: 'Reporting', mode: 'test', scopes: ['customers:read'] });
    expect(testKey.status).toBe(201);
    const ids = async (query: string) => (await as('GET', `/keys${query}`)).json.keys.map((k: { id: string }) => k.id);
    expect(await ids('')).toEqual([seller.keyId]);
    expect(await ids('?mode=test')).toEqual([testKey.json.id]);
    for (const path of ['/keys', '/webhooks', '/activity']) {
      for (const mode of ['prod', 'TEST', '']) {
        const refused = await as('GET', `${path}?mode=${mode}`);
        expect([refused.status, refused.json], `${path} ${mode}`).toEqual([400, fieldErrorBody('Bad Request', 'mode must be one of live, test')]);
      }
    }
  });

  it('wipes test data only, with the counts, audited test_data.deleted (test, the session as actor); cross-origin stores nothing', async () => {
    const { seller, cookie, as, live, test } = await sellerWithBothModes();
    const testKey = await server.key(seller.sellerId, { mode: 'test' });
    for (let i = 0; i < 2; i++) expect((await server.call('POST', '/api/customers', { key: testKey.key, body: newCustomer() })).status).toBe(201);
    const liveCustomer = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expect(liveCustomer.status).toBe(201);

    const crossOrigin = await server.call('DELETE', '/dashboard/api/test_data', { headers: { cookie, origin: 'https://evil.example' } });
    expect(crossOrigin.status).toBe(403);
    expect((await server.call('GET', '/api/customers', { key: testKey.key })).json.data).toHaveLength(2);

    const wiped = await as('DELETE', '/test_data');
    expect(wiped.status).toBe(200);
    expect(wiped.json).toEqual({ customers: 2, webhook_endpoints: 1, events: 2 });
    expect((await server.call('GET', '/api/customers', { key: testKey.key })).json.data).toEqual([]);
    expect((await server.call('GET', '/api/customers', { key: seller.key })).json.data.map((c: { id: string }) => c.id)).toEqual([liveCustomer.json.id]);
    expect((await as('GET', '/webhooks?mode=test')).json.endpoints).toEqual([]);
    expect((await as('GET', '/webhooks')).json.endpoints.map((e: { id: string }) => e.id)).toEqual([live]);
    expect((await as('GET', `/webhooks/${test}?mode=test`)).status).toBe(404);

    const audit = await server.handle.db.selectFrom('audit_log').select(['action', 'mode', 'actor_type'])
      .where('seller_id', '=', seller.sellerId).where('action', '=', 'test_data.deleted').execute();
    expect(audit).toEqual([{ action: 'test_data.deleted', mode: 'test', actor_type: 'dashboard' }]);
    const testActivity = (await as('GET', '/activity?mode=test')).json.entries.map((e: { action: string }) => e.action);
    expect(testActivity[0]).toBe('test_data.deleted');
    expect((await as('GET', '/activity')).json.entries.map((e: { action: string }) => e.action)).not.toContain('test_data.deleted');
  });
});
