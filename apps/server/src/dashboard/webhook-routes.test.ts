import { randomBytes } from 'node:crypto';
import { customerEvent, LATEST_API_VERSION } from '@customers-api/core';
import { CustomersClient, verifyWebhook, WebhookVerificationError } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { changeFromRow } from '../webhooks/changes.js';
import { createSecretBox } from '../webhooks/secret-box.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

const ALL = ['customer.created', 'customer.updated', 'customer.deleted'];
const PRIVATE = 'url must point at a public address (loopback and private networks are refused)';

const CONTROLS = 'url must not contain control characters or bidirectional formatting characters';

describe.each(DIALECTS)('dashboard webhooks API on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown) =>
    server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
  const endpoints = async () => (await call('GET', '/webhooks')).json.endpoints as { id: string; url: string }[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
    cookie = await signIn(server, seller.sellerId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('registers an endpoint with its secret shown once, lists it without the secret, and deletes it', async () => {
    const created = await call('POST', '/webhooks', { url: 'https://shop.example.com/hooks' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.any(String),
      url: 'https://shop.example.com/hooks',
      events: ALL,
      description: '',
      created_at: expect.any(String),
      failing: false,
      failing_since: null,
      disabled: false,
      disabled_at: null,
      previous_secret_expires_at: null,
      api_version: LATEST_API_VERSION,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const list = await call('GET', '/webhooks');
    expect(list.text).not.toContain(created.json.secret);
    // Listed with its health too: nothing tried yet, so healthy, never succeeded, nothing due.
    expect(list.json.endpoints).toContainEqual({ ...created.json, secret: undefined, health: 'healthy', last_succeeded_at: null, next_retry_at: null });
    expect(Object.keys(list.json.endpoints.find((e: { id: string }) => e.id === created.json.id))).not.toContain('secret');

    const only = await call('POST', '/webhooks', { url: 'https://portal.example.com/h', events: ['customer.deleted', 'customer.updated', 'customer.updated'] });
    expect(only.json.events).toEqual(['customer.updated', 'customer.deleted']);

    expect((await call('DELETE', `/webhooks/${created.json.id}`)).status).toBe(204);
    expect((await endpoints()).map((e) => e.id)).toEqual([only.json.id]);
    expect((await call('DELETE', `/webhooks/${created.json.id}`)).json).toEqual(errorBody('Not Found', 'Webhook endpoint not found'));
    expect((await call('DELETE', `/webhooks/${only.json.id.toUpperCase()}`)).status).toBe(204);
  });

  it("pins an endpoint to the API version asked for, else the seller's", async () => {
    const chosen = await call('POST', '/webhooks', { url: 'https://pinned.example.com/h', api_version: LATEST_API_VERSION });
    expect(chosen.status).toBe(201);
    expect(chosen.json.api_version).toBe(LATEST_API_VERSION);
    // A seller pinned to a version this build no longer lists still gets it on its new endpoints.
    await server.handle.db.updateTable('sellers').set({ api_version: '2026-06-01' }).where('id', '=', seller.sellerId).execute();
    try {
      const inherited = await call('POST', '/webhooks', { url: 'https://inherited.example.com/h' });
      expect(inherited.json.api_version).toBe('2026-06-01');
      expect((await endpoints()).find((e) => e.id === inherited.json.id)).toMatchObject({ api_version: '2026-06-01' });
    } finally {
      await server.handle.db.updateTable('sellers').set({ api_version: LATEST_API_VERSION }).where('id', '=', seller.sellerId).execute();
    }
  });

  it('stores the normalized URL (what new URL(u).href gives) and answers with it', async () => {
    const created = await call('POST', '/webhooks', { url: 'HTTPS://CRM.Example.COM:443/a/../hooks?x=ü#frag' });
    expect(created.status).toBe(201);
    expect(created.json.url).toBe('https://crm.example.com/hooks?x=%C3%BC#frag');
    const listed = (await endpoints()).find((e) => e.id === created.json.id);
    expect(listed?.url).toBe('https://crm.example.com/hooks?x=%C3%BC#frag');
  });

  it('refuses bad input with a 400 naming url or events, and stores nothing', async () => {
    const before = await endpoints();
    const cases: [unknown, string][] = [
      [{}, 'url is required'],
      [{ url: 5 }, 'url must be a string'],
      [{ url: 'mailto:ops@example.com' }, 'url must be an http or https URL'],
      [{ url: 'https://user:pw@example.com/' }, 'url must not contain a user name or password'],
      [{ url: 'http://127.0.0.1:4242/hook' }, PRIVATE],
      [{ url: 'http://localhost:4242/hook' }, PRIVATE],
      [{ url: 'http://169.254.169.254/latest/meta-data' }, PRIVATE],
      [{ url: 'http://[::ffff:10.0.0.1]/' }, PRIVATE],
      [{ url: 'http://[fec0::1]/' }, PRIVATE],
      [{ url: 'http://[::ffff:0:7f00:1]/' }, PRIVATE],
      ...['\u0000', '\u0007', '\u001b[31m', '\n', '\t', '\u007f', '\u0085', '\u009b', '\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069'].map(
        (control): [unknown, string] => [{ url: `https://example.com/a${control}b` }, CONTROLS],
      ),
      [{ url: '\u0000https://example.com/' }, CONTROLS],
      [{ url: 'https://example.com', events: [] }, 'events must be one or more of customer.created, customer.updated, customer.deleted'],
      [
        { url: 'https://example.com', events: ['customer.merged'] },
        'events must be one or more of customer.created, customer.updated, customer.deleted; "customer.merged" is not an event type',
      ],
      [{ url: 'https://example.com', events: 'customer.created' }, 'events must be an array of event types'],
      [{ url: 'https://example.com', events: [1] }, 'events[0] must be a string'],
      [{ url: 'https://example.com', secret: 'whsec_AAAA' }, 'secret is not an allowed property'],
      [{ url: 'https://example.com', api_version: 20261126 }, 'api_version must be a string'],
      [{ url: 'https://example.com', api_version: '2020-13-01' }, `api_version must be one of: ${LATEST_API_VERSION}`],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/webhooks', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.json).toEqual(fieldErrorBody('Bad Request', message));
    }
    expect((await call('POST', '/webhooks')).json).toEqual(fieldErrorBody('Bad Request', 'body must be a JSON object'));
    expect(await endpoints()).toEqual(before);
  });

  it('rotates a secret: the new one shown once, the previous one signing for 24 hours', async () => {
    const { json: created } = await call('POST', '/webhooks', { url: 'https://crm.example.com/in' });
    const started = Date.now();
    const rotated = await call('POST', `/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toEqual({ ...created, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
    expect(rotated.json.secret).not.toBe(created.secret);
    const overlap = Date.parse(rotated.json.previous_secret_expires_at) - started;
    expect(overlap).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3_600_000 + 60_000);
    const listed = (await call('GET', '/webhooks')).json.endpoints.find((e: { id: string }) => e.id === created.id);
    expect(listed.previous_secret_expires_at).toBe(rotated.json.previous_secret_expires_at);
    expect(JSON.stringify(listed)).not.toContain(rotated.json.secret);
    expect((await call('POST', '/webhooks/not-a-uuid/rotate-secret')).status).toBe(404);
  });

  it('lists the deliveries of API changes and of a test event, newest first, and resends one', async () => {
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://crm.example.com/changes', events: ['customer.created', 'customer.updated'] });
    const customer = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    await server.call('PATCH', `/api/customers/${customer.id}`, { key: seller.key, body: { status: 'suspended' } });
    await server.call('DELETE', `/api/customers/${customer.id}`, { key: seller.key });

    const test = await call('POST', `/webhooks/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    expect(test.json).toEqual({
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      event_type: 'customer.updated',
      customer_id: expect.stringMatching(/^00000000-0000-4000-8000-[0-9a-f]{12}$/),
      sequence: 1,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      last_attempt_at: null,
      next_attempt_at: expect.any(String),
      delivered_at: null,
      created_at: expect.any(String),
    });

    const { json } = await call('GET', `/webhooks/${endpoint.id}/deliveries`);
    // Not subscribed to customer.deleted: two changes and the test event.
    expect(json.deliveries.map((d: { event_type: string; customer_id: string }) => [d.event_type, d.customer_id === customer.id])).toEqual([
      ['customer.updated', false],
      ['customer.updated', true],
      ['customer.created', true],
    ]);
    expect(json.deliveries[0]).toEqual(test.json);

    // The test event, as the worker will build it from the outbox: the spec's example for this seller.
    const row = await server.handle.db.selectFrom('customer_changes').selectAll().where('event_id', '=', test.json.event_id).executeTakeFirstOrThrow();
    const event = customerEvent(changeFromRow(row));
    expect(event).toMatchObject({
      id: test.json.event_id,
      type: 'customer.updated',
      data: { customer: { id: test.json.customer_id, seller_id: seller.sellerId, first_name: 'Ada', status: 'suspended' }, changed_fields: ['status'], sequence: 1 },
    });

    expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/${json.deliveries[2].event_id}/resend`)).status).toBe(204);
    const missing = errorBody('Not Found', 'Webhook endpoint not found');
    const deleted = (await server.handle.db.selectFrom('customer_changes').select('event_id').where('type', '=', 'customer.deleted').where('customer_id', '=', customer.id).executeTakeFirstOrThrow()).event_id;
    for (const eventId of [deleted, 'evt_00000000000000000000000000000000', 'nope']) {
      expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/${eventId}/resend`)).json, eventId).toEqual(missing);
    }
    expect((await call('GET', '/webhooks/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f/deliveries')).json).toEqual(missing);
    expect((await call('POST', '/webhooks/7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f/test')).json).toEqual(missing);
  });
});

describe.each(DIALECTS)('dashboard webhooks API on %s with --allow-private-webhooks, delivering', (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // Delivering like `serve --allow-private-webhooks` does, to a real receiver on 127.0.0.1.
    server = await startTestServer(dialect, { webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, pollIntervalMs: 100 } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('accepts loopback and private URLs; the scheme and credential rules still hold', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const create = (url: string) => server.call('POST', '/dashboard/api/webhooks', { headers: { cookie, ...sameOrigin(server) }, body: { url } });
    for (const url of ['http://127.0.0.1:4242/hook', 'http://localhost:3001/x', 'http://10.1.2.3/y']) {
      expect((await create(url)).status, url).toBe(201);
    }
    expect((await create('file:///etc/passwd')).json).toEqual(fieldErrorBody('Bad Request', 'url must be an http or https URL'));
  });

  it('delivers changes and the test event, signed with the shown secret; resend and rotation reach the receiver', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const call = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });
    const mine = (all: WebhookReceiver['received']) => all.filter((r) => r.event?.data?.customer?.seller_id === seller.sellerId);
    const nth = async (count: number) => mine(await receiver.waitUntil((all) => mine(all).length >= count));

    const { json: endpoint } = await call('POST', '/webhooks', { url: receiver.url });
    const client = new CustomersClient({ apiKey: seller.key, baseUrl: server.url, maxRetries: 0 });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const [created] = await nth(1);
    const event = await verifyWebhook(created!.body, created!.headers, endpoint.secret);
    expect(event).toMatchObject({ type: 'customer.created', data: { customer: ada, sequence: 1 } });

    const test = await call('POST', `/webhooks/${endpoint.id}/test`);
    const testRequest = (await nth(2))[1]!;
    const testEvent = await verifyWebhook(testRequest.body, testRequest.headers, endpoint.secret);
    expect(testEvent).toMatchObject({
      id: test.json.event_id,
      type: 'customer.updated',
      data: { customer: { id: test.json.customer_id, seller_id: seller.sellerId, status: 'suspended' }, changed_fields: ['status'], sequence: 1 },
    });

    await server.app.webhookWorker!.drain();
    const listed = (await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries;
    expect(listed.map((d: Record<string, unknown>) => [d.event_id, d.status, d.attempts, d.last_status_code])).toEqual([
      [test.json.event_id, 'delivered', 1, 204],
      [event.id, 'delivered', 1, 204],
    ]);

    // Resend: the same event (same webhook-id and body) once more.
    expect((await call('POST', `/webhooks/${endpoint.id}/deliveries/${event.id}/resend`)).status).toBe(204);
    const resent = (await nth(3))[2]!;
    expect(resent.headers['webhook-id']).toBe(event.id);
    expect(resent.body).toBe(created!.body);

    // Rotation: for 24 hours requests carry both signatures, so the old and the new secret both verify.
    const { json: rotated } = await call('POST', `/webhooks/${endpoint.id}/rotate-secret`);
    await client.customers.update(ada.id, { status: 'inactive' });
    const afterRotation = (await nth(4))[3]!;
    expect(String(afterRotation.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect((await verifyWebhook(afterRotation.body, afterRotation.headers, secret)).type).toBe('customer.updated');
    }
    const forged = await verifyWebhook(afterRotation.body.replace('inactive', 'active'), afterRotation.headers, rotated.secret).catch((e: unknown) => e);
    expect(forged).toBeInstanceOf(WebhookVerificationError);
  });
});
