import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSellerRateLimit, setSellerWebhookEndpointLimit } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { DEFAULT_WEBHOOK_ENDPOINT_LIMIT } from '../webhooks/delivery-fairness.js';
import { sameOrigin, signIn } from './dashboard-test-helpers.js';

// What one seller may create or trigger from the dashboard (issue 23): a cap on endpoints, and endpoint changes,
// test events and resends taken from the seller's API rate budget. Disabled endpoints are enabled here again.

describe.each(DIALECTS)('dashboard webhook limits on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    // The API's limiter, as `serve` has it (100 per second by default); sellers below get their own limits. Its
    // windows follow a clock that stands still: a spent budget stays spent however slowly the requests run.
    server = await startTestServer(dialect, { rateLimit: { perSecond: 100, now: () => 0 } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedIn({ rateLimit }: { rateLimit: number }) {
    const seller = await server.seller();
    await setSellerRateLimit(server.handle, seller.sellerId, rateLimit);
    const cookie = await signIn(server, seller.sellerId);
    const call = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    return { ...seller, cookie, call };
  }
  const endpointCount = (sellerId: string) =>
    server.handle.db.selectFrom('webhook_endpoints').select('id').where('seller_id', '=', sellerId).execute().then((rows) => rows.length);

  it('refuses an endpoint beyond the cap with a 403 naming it: the default, then the seller’s own', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    for (let i = 0; i < DEFAULT_WEBHOOK_ENDPOINT_LIMIT; i++) {
      expect((await seller.call('POST', '/webhooks', { url: `https://shop.example.com/hooks/${i}` })).status).toBe(201);
    }
    const refused = await seller.call('POST', '/webhooks', { url: 'https://shop.example.com/hooks/one-more' });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(errorBody('Forbidden', /^Webhook endpoint limit reached: this account may have at most 10 webhook endpoints;/));
    expect(await endpointCount(seller.sellerId)).toBe(DEFAULT_WEBHOOK_ENDPOINT_LIMIT);

    await setSellerWebhookEndpointLimit(server.handle, seller.sellerId, 11);
    expect((await seller.call('POST', '/webhooks', { url: 'https://shop.example.com/hooks/eleven' })).status).toBe(201);
    expect((await seller.call('POST', '/webhooks', { url: 'https://shop.example.com/hooks/twelve' })).json.message).toMatch(/at most 11 webhook endpoints/);
    // Deleting one makes room again.
    const [first] = (await seller.call('GET', '/webhooks')).json.endpoints as { id: string }[];
    expect((await seller.call('DELETE', `/webhooks/${first!.id}`)).status).toBe(204);
    expect((await seller.call('POST', '/webhooks', { url: 'https://shop.example.com/hooks/twelve' })).status).toBe(201);
  });

  it('counts concurrent creates at the cap exactly', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    await setSellerWebhookEndpointLimit(server.handle, seller.sellerId, 3);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => seller.call('POST', '/webhooks', { url: `https://race.example.com/${i}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    expect(await endpointCount(seller.sellerId)).toBe(3);
  });

  it('takes test events, resends and endpoint changes from the seller’s API budget: 429 with Retry-After when spent', async () => {
    const seller = await signedIn({ rateLimit: 5 });
    // Refused before the budget is looked at: cross-origin requests spend nothing.
    for (let i = 0; i < 6; i++) {
      const forged = await server.call('POST', '/dashboard/api/webhooks', { headers: { cookie: seller.cookie, origin: 'https://evil.example' }, body: { url: 'https://evil.example/x' } });
      expect(forged.status).toBe(403);
    }
    // One budget with the API: a customer (1), an endpoint (2), two test events (3, 4), a resend (5).
    expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(201);
    const endpoint = await seller.call('POST', '/webhooks', { url: 'https://budget.example.com/hooks' });
    expect(endpoint.status).toBe(201);
    expect(endpoint.headers.get('ratelimit')).toMatch(/"seller";r=3;t=1/);
    const test = await seller.call('POST', `/webhooks/${endpoint.json.id}/test`);
    expect(test.status).toBe(202);
    expect((await seller.call('POST', `/webhooks/${endpoint.json.id}/test`)).status).toBe(202);
    expect((await seller.call('POST', `/webhooks/${endpoint.json.id}/deliveries/${test.json.event_id}/resend`)).status).toBe(204);
    const before = await server.handle.db.selectFrom('webhook_deliveries').selectAll().where('seller_id', '=', seller.sellerId).orderBy('id').execute();

    const spent = [
      await seller.call('POST', `/webhooks/${endpoint.json.id}/test`),
      await seller.call('POST', `/webhooks/${endpoint.json.id}/deliveries/${test.json.event_id}/resend`),
      await seller.call('POST', '/webhooks', { url: 'https://budget.example.com/more' }),
      await seller.call('POST', `/webhooks/${endpoint.json.id}/rotate-secret`),
      await seller.call('POST', `/webhooks/${endpoint.json.id}/enable`),
      await seller.call('DELETE', `/webhooks/${endpoint.json.id}`),
    ];
    for (const answer of spent) {
      expect(answer.status).toBe(429);
      expect(answer.json).toEqual(errorBody('Too Many Requests', /^Too many requests; retry after 1 second/));
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Nothing was queued, created, rotated or deleted; the API shares the spent budget.
    const after = await server.handle.db.selectFrom('webhook_deliveries').selectAll().where('seller_id', '=', seller.sellerId).orderBy('id').execute();
    expect(after).toEqual(before);
    expect(await endpointCount(seller.sellerId)).toBe(1);
    expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(429);
    // Reading is free: the list still answers.
    expect((await seller.call('GET', '/webhooks')).status).toBe(200);
  });

  it('charges “Resend all failed” once however many it resends, and refuses it with nothing changed when the budget is spent', async () => {
    const seller = await signedIn({ rateLimit: 4 });
    // One budget with the API: an endpoint (1), two customers (2, 3), then the resend of both (4) spends it.
    const { json: endpoint } = await seller.call('POST', '/webhooks', { url: 'https://budget.example.com/failed' });
    for (let i = 0; i < 2; i++) expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(201);
    // Both deliveries given up.
    const giveUp = () =>
      server.handle.db
        .updateTable('webhook_deliveries')
        .set({ attempts: 5, next_attempt_at: null, given_up_at: new Date().toISOString() })
        .where('endpoint_id', '=', endpoint.id)
        .execute();
    await giveUp();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const resent = await seller.call('POST', `/webhooks/${endpoint.id}/resend-failed`, { since });
    expect(resent.status).toBe(200);
    expect(resent.json).toEqual({ resent: 2, more: false });
    expect(resent.headers.get('ratelimit')).toMatch(/"seller";r=0;t=1/);

    await giveUp();
    const before = await server.handle.db.selectFrom('webhook_deliveries').selectAll().where('seller_id', '=', seller.sellerId).orderBy('id').execute();
    const refused = await seller.call('POST', `/webhooks/${endpoint.id}/resend-failed`, { since });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual(errorBody('Too Many Requests', /^Too many requests; retry after 1 second/));
    const after = await server.handle.db.selectFrom('webhook_deliveries').selectAll().where('seller_id', '=', seller.sellerId).orderBy('id').execute();
    expect(after).toEqual(before);
  });

  it('enables a disabled endpoint again, and lists it as disabled until then', async () => {
    const seller = await signedIn({ rateLimit: 0 });
    const { json: endpoint } = await seller.call('POST', '/webhooks', { url: 'https://down.example.com/hooks' });
    const disabledAt = '2026-11-20T08:00:00.000Z';
    await server.handle.db
      .updateTable('webhook_endpoints')
      .set({ disabled_at: disabledAt, attempts_failing_since: '2026-11-15T08:00:00.000Z', timeouts_in_a_row: 3 })
      .where('id', '=', endpoint.id)
      .execute();
    const listed = (await seller.call('GET', '/webhooks')).json.endpoints[0];
    expect(listed).toMatchObject({ id: endpoint.id, disabled: true, disabled_at: disabledAt });
    // Nothing is recorded for it while disabled.
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expect((await seller.call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries).toEqual([]);

    const enabled = await seller.call('POST', `/webhooks/${endpoint.id}/enable`);
    expect(enabled.status).toBe(200);
    // The list adds health (last success, next retry) to each endpoint; the enable answers the endpoint itself.
    const { health, last_succeeded_at: _lastSuccess, next_retry_at: _nextRetry, ...fields } = listed;
    expect(health).toBe('disabled');
    expect(enabled.json).toEqual({ ...fields, disabled: false, disabled_at: null });
    const row = await server.handle.db
      .selectFrom('webhook_endpoints')
      .select(['attempts_failing_since', 'timeouts_in_a_row'])
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts_failing_since: null, timeouts_in_a_row: 0 });
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expect((await seller.call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries).toHaveLength(1);
    // Enabling an enabled endpoint changes nothing.
    expect((await seller.call('POST', `/webhooks/${endpoint.id}/enable`)).json).toEqual(enabled.json);
  });
});
