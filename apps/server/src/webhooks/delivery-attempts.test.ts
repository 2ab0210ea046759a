import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { LATEST_API_VERSION, WEBHOOK_EVENT_RETENTION_MS } from '@customers-api/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { endpointSuccessRates, findDeliveryDetail, listDeliveryPage } from './delivery-pages.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createEndpoint } from './endpoints.js';
import { pruneFinishedChanges } from './prune-outbox.js';
import { RESPONSE_BODY_LIMIT } from './send-webhook.js';
import { createSecretBox } from './secret-box.js';

const box = createSecretBox(randomBytes(32));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe.each(DIALECTS)('kept delivery attempts on %s', (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** A seller with an endpoint at `url`, `customers` customers created, and a worker on a clock moved by hand. */
  async function setUp(url: string, customers = 1) {
    const seller = await server.seller();
    const created = await createEndpoint(server.handle, box, seller.sellerId, { url }, { allowPrivate: true });
    if (created.kind !== 'created') throw new Error(created.message);
    for (let i = 0; i < customers; i++) {
      expect((await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).status).toBe(201);
    }
    let now = Date.now() + 1;
    const clock = { now: () => now, advance: (ms: number) => (now += ms) };
    const worker = new DeliveryWorker({ database: server.handle, secrets: box, clock, random: () => 0, allowPrivate: true });
    return { seller, endpoint: created.endpoint, clock, worker };
  }

  it("keeps each attempt: status, the answer's first 2 KiB, duration, and the signed request that verifies", async () => {
    receiver.answerWith(() => ({ status: 500, body: `oops:${'x'.repeat(3000)}` }));
    const { seller, endpoint, clock, worker } = await setUp(receiver.url);
    await worker.drain();
    const [first] = (await listDeliveryPage(server.handle, seller.sellerId, endpoint.id))!.deliveries;
    let detail = (await findDeliveryDetail(server.handle, seller.sellerId, endpoint.id, first!.event_id))!;
    expect(detail.status).toBe('retrying');
    expect(detail.attempts_made).toHaveLength(1);
    expect(detail.attempts_made[0]).toMatchObject({ attempt: 1, status_code: 500, error: null });
    expect(detail.attempts_made[0]!.response_body).toHaveLength(RESPONSE_BODY_LIMIT);
    expect(detail.attempts_made[0]!.response_body!.startsWith('oops:xxx')).toBe(true);
    expect(detail.attempts_made[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    // The request as sent: its signature verifies with the endpoint's secret, which it never contains.
    const { request } = detail;
    expect(request).toMatchObject({ method: 'POST', url: endpoint.url });
    expect(new Webhook(endpoint.secret).verify(request.body, request.headers)).toEqual(JSON.parse(request.body));
    expect(request.headers['webhook-id']).toBe(first!.event_id);
    // In the endpoint's version, named by the header as the worker sends it.
    expect(request.headers['customers-version']).toBe(LATEST_API_VERSION);
    expect(JSON.parse(request.body).api_version).toBe(LATEST_API_VERSION);
    expect(JSON.stringify(request)).not.toContain(endpoint.secret.slice('whsec_'.length));

    receiver.answerWith(() => ({ status: 200, body: 'thanks' }));
    clock.advance(5000);
    await worker.drain();
    detail = (await findDeliveryDetail(server.handle, seller.sellerId, endpoint.id, first!.event_id))!;
    expect(detail.status).toBe('delivered');
    expect(detail.attempts_made.map((a) => [a.attempt, a.status_code, a.response_body])).toEqual([
      [2, 200, 'thanks'],
      [1, 500, expect.any(String)],
    ]);
    const rates = await endpointSuccessRates(server.handle, endpoint.id, new Date(clock.now()));
    expect(rates.last_24h).toEqual({ attempts: 2, succeeded: 1, rate: 0.5 });
    expect(rates.last_7d).toEqual({ attempts: 2, succeeded: 1, rate: 0.5 });
    // A week later the attempts are outside both windows.
    expect((await endpointSuccessRates(server.handle, endpoint.id, new Date(clock.now() + 8 * 24 * 3600 * 1000))).last_7d.rate).toBeNull();
    await worker.stop();
  });

  it('says why no answer came in plain language: "Connection refused", no address', async () => {
    const { seller, endpoint, worker } = await setUp(`http://127.0.0.1:${await closedPort()}/hooks`);
    await worker.drain();
    const [delivery] = (await listDeliveryPage(server.handle, seller.sellerId, endpoint.id))!.deliveries;
    expect(delivery).toMatchObject({ status: 'retrying', last_status_code: null, last_error: 'Connection refused' });
    const detail = (await findDeliveryDetail(server.handle, seller.sellerId, endpoint.id, delivery!.event_id))!;
    expect(detail.attempts_made).toEqual([
      { attempt: 1, attempted_at: expect.any(String), duration_ms: expect.any(Number), status_code: null, error: 'Connection refused', response_body: null, response_headers: null },
    ]);
    await worker.stop();
  });

  it('prunes the attempts with their event', async () => {
    receiver.answerWith(() => ({ status: 204 }));
    const { seller, endpoint, clock, worker } = await setUp(receiver.url);
    await worker.drain();
    await worker.stop();
    const attempts = () =>
      server.handle.db.selectFrom('webhook_delivery_attempts').select('id').where('endpoint_id', '=', endpoint.id).execute();
    expect(await attempts()).toHaveLength(1);
    await pruneFinishedChanges(server.handle, { now: new Date(clock.now() + WEBHOOK_EVENT_RETENTION_MS + 1000) });
    expect(await attempts()).toHaveLength(0);
    expect((await listDeliveryPage(server.handle, seller.sellerId, endpoint.id))!.deliveries).toEqual([]);
  });

  it('pages deliveries newest first, filtered by state, event type and event id', async () => {
    receiver.answerWith(() => ({ status: 204 }));
    const { seller, endpoint, clock, worker } = await setUp(receiver.url, 3);
    await worker.drain();
    const customerId = JSON.parse((await server.call('GET', '/api/customers?limit=1', { key: seller.key })).text).data[0].id as string;
    receiver.answerWith(() => ({ status: 503 }));
    expect((await server.call('DELETE', `/api/customers/${customerId}`, { key: seller.key })).status).toBe(204);
    // Past the delete's due time, which the database set from the real clock (the drains before may take seconds
    // on a loaded machine, so a fixed step is not enough).
    clock.advance(Math.max(1000, Date.now() + 1000 - clock.now()));
    await worker.drain();
    const page = (query: Parameters<typeof listDeliveryPage>[3]) => listDeliveryPage(server.handle, seller.sellerId, endpoint.id, query);
    const all = (await page({}))!.deliveries;
    expect(all.map((d) => d.event_type)).toEqual(['customer.deleted', 'customer.created', 'customer.created', 'customer.created']);
    expect((await page({ state: 'failed' }))!.deliveries.map((d) => d.event_type)).toEqual(['customer.deleted']);
    expect((await page({ state: 'succeeded' }))!.deliveries).toHaveLength(3);
    expect((await page({ eventType: 'customer.deleted' }))!.deliveries).toHaveLength(1);
    expect((await page({ eventId: all[2]!.event_id }))!.deliveries).toEqual([all[2]]);
    const first = (await page({ limit: 3 }))!;
    expect(first.deliveries).toEqual(all.slice(0, 3));
    const second = (await page({ limit: 3, cursor: first.next_cursor! }))!;
    expect(second).toEqual({ deliveries: all.slice(3), next_cursor: null });
    await worker.stop();
  });
});
