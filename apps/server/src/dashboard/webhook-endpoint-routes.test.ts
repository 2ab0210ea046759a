import { randomBytes } from 'node:crypto';
import { WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import { verifyWebhook } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { createSecretBox } from '../webhooks/secret-box.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

describe.each(DIALECTS)("dashboard: an endpoint's own page API on %s", (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let seller: TestSeller;
  let cookie: string;
  // The worker's clock runs ahead of real time by hand (retries fall due without waiting); writes stay due at once.
  let ahead = 0;
  const call = (method: string, path: string, body?: unknown) =>
    server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
  const drain = () => server.app.webhookWorker!.drain();
  const mine = () => receiver.received.filter((r) => r.event?.data?.customer?.seller_id === seller.sellerId);

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, clock: { now: () => Date.now() + ahead }, random: () => 0 },
    });
    receiver = await startWebhookReceiver();
    seller = await server.seller();
    cookie = await signIn(server, seller.sellerId);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('edits URL, event types and description under the creation rules; a duplicate URL is 409; refusals change nothing', async () => {
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://a.example.com/hooks', description: 'CRM' });
    expect(endpoint.description).toBe('CRM');
    const { json: other } = await call('POST', '/webhooks', { url: 'https://b.example.com/hooks' });
    const taken = fieldErrorBody('Conflict', 'url https://b.example.com/hooks already has a webhook endpoint in this account; edit that one instead');
    expect((await call('POST', '/webhooks', { url: 'HTTPS://B.example.com:443/hooks' })).json).toEqual(taken);

    const before = (await call('GET', `/webhooks/${endpoint.id}`)).json;
    const refusals: [unknown, number, string][] = [
      [{ url: 'https://b.example.com/hooks' }, 409, taken.message],
      [{ url: 'ftp://x.example/' }, 400, 'url must be an http or https URL'],
      [{ events: ['customer.merged'] }, 400, 'events must be one or more of customer.created, customer.updated, customer.deleted; "customer.merged" is not an event type'],
      [{ events: [] }, 400, 'events must be one or more of customer.created, customer.updated, customer.deleted'],
      [{ description: 'x'.repeat(201) }, 400, 'description must be at most 200 characters'],
      [{ description: 'a\u202eb' }, 400, 'description must not contain control or bidirectional formatting characters'],
      [{ description: 5 }, 400, 'description must be a string'],
      [{}, 400, 'body must name at least one of url, events, description'],
      [{ secret: 'whsec_x' }, 400, 'secret is not an allowed property'],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await call('PATCH', `/webhooks/${endpoint.id}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.json.message).toBe(message);
    }
    expect((await call('GET', `/webhooks/${endpoint.id}`)).json).toEqual(before);

    const edited = await call('PATCH', `/webhooks/${endpoint.id}`, { url: 'https://A.example.com/v2', events: ['customer.deleted'], description: 'CRM v2' });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ id: endpoint.id, url: 'https://a.example.com/v2', events: ['customer.deleted'], description: 'CRM v2' });
    expect(edited.json).not.toHaveProperty('secret');
    // Its own URL again is no conflict.
    expect((await call('PATCH', `/webhooks/${endpoint.id}`, { url: 'https://a.example.com/v2' })).status).toBe(200);
    expect((await call('PATCH', `/webhooks/${other.id}`, { description: '' })).json.description).toBe('');
  });

  it('disables and enables; reveals the secret that signs deliveries; all of it audited', async () => {
    const { json: endpoint } = await call('POST', '/webhooks', { url: receiver.url, events: ['customer.created'] });
    const disabled = await call('POST', `/webhooks/${endpoint.id}/disable`);
    expect(disabled.json).toMatchObject({ disabled: true, disabled_at: expect.any(String) });
    // Nothing is kept for a disabled endpoint.
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries).toEqual([]);
    expect((await call('POST', `/webhooks/${endpoint.id}/enable`)).json).toMatchObject({ disabled: false, disabled_at: null });

    const revealed = await call('POST', `/webhooks/${endpoint.id}/reveal-secret`);
    expect(revealed.json).toEqual({ id: endpoint.id, secret: endpoint.secret });
    await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    const [request] = await receiver.waitUntil(() => mine().length >= 1).then(mine);
    expect((await verifyWebhook(request!.body, request!.headers, revealed.json.secret)).type).toBe('customer.created');

    const actions = (await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 100 }))
      .filter((row) => row.target_id === endpoint.id)
      .map((row) => row.action);
    expect(actions).toEqual(['webhook_endpoint.secret_revealed', 'webhook_endpoint.enabled', 'webhook_endpoint.disabled', 'webhook_endpoint.created']);
  });

  it('shows a failing delivery with its attempts, the success rate, and resends every failed one since a time once', async () => {
    receiver.answerWith(() => ({ status: 500, body: '{"error":"db down"}' }));
    const { json: endpoint } = await call('POST', '/webhooks', { url: `${receiver.url}?failing`, events: ['customer.created'] });
    const since = new Date().toISOString();
    for (let i = 0; i < 2; i++) await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    await drain();
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      ahead += delay;
      await drain();
    }
    const failed = (await call('GET', `/webhooks/${endpoint.id}/deliveries?state=failed`)).json;
    expect(failed.deliveries.map((d: { status: string }) => d.status)).toEqual(['failed', 'failed']);
    expect(failed.next_cursor).toBeNull();

    const detail = await call('GET', `/webhooks/${endpoint.id}/deliveries/${failed.deliveries[0].event_id}`);
    expect(detail.status).toBe(200);
    expect(detail.json.attempts_made).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expect(detail.json.attempts_made[0]).toMatchObject({ status_code: 500, response_body: '{"error":"db down"}', error: null });
    expect(detail.json.request.headers['webhook-id']).toBe(failed.deliveries[0].event_id);
    expect(detail.text).not.toContain(endpoint.secret.slice('whsec_'.length));

    const page = (await call('GET', `/webhooks/${endpoint.id}`)).json;
    expect(page.success_rates.last_7d).toMatchObject({ succeeded: 0, rate: 0 });
    expect(page.failing).toBe(true);

    receiver.answerWith(() => ({ status: 204 }));
    const before = mine().length;
    // The page asks first how many it will send: the server counts them as the resend picks them.
    const counted = await call('GET', `/webhooks/${endpoint.id}/resend-failed?since=${encodeURIComponent(since)}`);
    expect(counted.json).toEqual({ count: 2, more: false });
    const resent = await call('POST', `/webhooks/${endpoint.id}/resend-failed`, { since });
    expect(resent.json).toEqual({ resent: 2, more: false });
    await drain();
    const again = mine().slice(before).map((r) => r.headers['webhook-id']);
    expect(again.sort()).toEqual(failed.deliveries.map((d: { event_id: string }) => d.event_id).sort());
    // Nothing failed is left: a second resend-all finds nothing.
    expect((await call('POST', `/webhooks/${endpoint.id}/resend-failed`, { since })).json).toEqual({ resent: 0, more: false });
    expect((await call('GET', `/webhooks/${endpoint.id}/resend-failed?since=${encodeURIComponent(since)}`)).json).toEqual({ count: 0, more: false });
    const actions = (await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 5 })).map((row) => row.action);
    expect(actions.filter((a) => a === 'webhook_delivery.resent_failed')).toHaveLength(2);
  });

  it('refuses bad filters, bad since and test event types the endpoint does not receive, naming the parameter', async () => {
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://filters.example.com/hooks', events: ['customer.deleted'] });
    const base = `/webhooks/${endpoint.id}`;
    const cases: [string, string, unknown, string][] = [
      ['GET', `${base}/deliveries?state=broken`, undefined, 'state must be one of all, failed, succeeded'],
      ['GET', `${base}/deliveries?event_type=customer.merged`, undefined, 'event_type must be one of customer.created, customer.updated, customer.deleted'],
      ['GET', `${base}/deliveries?event_id=evt_x`, undefined, 'event_id must be an event id (evt_ and 32 hex digits)'],
      ['GET', `${base}/deliveries?cursor=abc`, undefined, "cursor must be a previous page's next_cursor"],
      ['GET', `${base}/deliveries?limit=0`, undefined, 'limit must be an integer from 1 to 50'],
      ['GET', `${base}/deliveries?limit=51`, undefined, 'limit must be an integer from 1 to 50'],
      ['GET', `${base}/deliveries?state=failed&state=all`, undefined, 'state must be given once'],
      ['POST', `${base}/resend-failed`, {}, 'since is required'],
      ['GET', `${base}/resend-failed`, undefined, 'since is required'],
      ['GET', `${base}/resend-failed?since=yesterday`, undefined, 'since must be an ISO 8601 date-time with its offset, e.g. 2026-11-25T08:00:00Z'],
      ['GET', `${base}/resend-failed?since=2026-11-25T08:00:00Z&limit=5`, undefined, 'limit is not a known query parameter'],
      ['POST', `${base}/resend-failed`, { since: 'yesterday' }, 'since must be an ISO 8601 date-time with its offset, e.g. 2026-11-25T08:00:00Z'],
      ['POST', `${base}/resend-failed`, { since: '2999-01-01T00:00:00Z' }, 'since must not be in the future'],
      ['POST', `${base}/test?event_type=customer.created`, undefined, 'event_type must be one this endpoint receives: customer.deleted'],
      ['GET', `${base}/test?event_type=customer.created`, undefined, 'event_type must be one this endpoint receives: customer.deleted'],
    ];
    for (const [method, path, body, message] of cases) {
      expect((await call(method, path, body)).json, path).toEqual(fieldErrorBody('Bad Request', message));
    }
    expect((await call('GET', `${base}/deliveries`)).json).toEqual({ deliveries: [], next_cursor: null });
  });

  it('previews the test event of a chosen type, then sends that type', async () => {
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://preview.example.com/hooks', events: ['customer.created', 'customer.deleted'] });
    const preview = await call('GET', `/webhooks/${endpoint.id}/test?event_type=customer.deleted`);
    expect(preview.json).toMatchObject({ type: 'customer.deleted', data: { customer: { seller_id: seller.sellerId }, sequence: 1 } });
    expect((await call('GET', `/webhooks/${endpoint.id}/test`)).json.type).toBe('customer.created');
    const sent = await call('POST', `/webhooks/${endpoint.id}/test?event_type=customer.deleted`);
    expect(sent.status).toBe(202);
    expect(sent.json.event_type).toBe('customer.deleted');
  });
});
