import { randomBytes } from 'node:crypto';
import { CustomersClient } from '@customers-api/sdk';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createEndpoint, findEndpoint, listDeliveries, rotateEndpointSecret } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

const box = createSecretBox(randomBytes(32));

/** A clock the test moves by hand. */
function manualClock(start = Date.now()) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function endpointFor(server: TestServer, sellerId: string, url: string, events?: string[]) {
  const result = await createEndpoint(server.handle, box, sellerId, { url, events }, { allowPrivate: true });
  if (result.kind !== 'created') throw new Error(result.message);
  return result.endpoint;
}

describe.each(DIALECTS)('webhook delivery on %s', (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // The server delivers from its own worker, as `serve` does (nudged after each write, polling every 100 ms).
    server = await startTestServer(dialect, { webhooks: { secrets: box, allowPrivate: true, pollIntervalMs: 100 } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('sends customer.created, .updated and .deleted after SDK calls, signed, in order, each exactly once', async () => {
    const seller = await server.seller();
    const endpoint = await endpointFor(server, seller.sellerId, receiver.url);
    const client = new CustomersClient({ apiKey: seller.key, baseUrl: server.url, maxRetries: 0 });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const suspended = await client.customers.update(ada.id, { status: 'suspended' });
    await client.customers.delete(ada.id);

    const mine = (all: WebhookReceiver['received']) => all.filter((r) => r.event?.data?.customer?.seller_id === seller.sellerId);
    const got = mine(await receiver.waitUntil((all) => mine(all).length >= 3));
    expect(got.map((r) => [r.event.type, r.event.data.sequence])).toEqual([
      ['customer.created', 1],
      ['customer.updated', 2],
      ['customer.deleted', 3],
    ]);
    expect(got[0]!.event.data.customer).toEqual(ada);
    expect(got[1]!.event.data).toEqual({ customer: suspended, changed_fields: ['status'], sequence: 2 });
    expect(got[2]!.event.data.customer).toEqual({ id: ada.id, seller_id: seller.sellerId });
    const verifier = new Webhook(endpoint.secret);
    for (const request of got) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toBe(request.event.id);
      expect(verifier.verify(request.body, request.headers as Record<string, string>)).toEqual(request.event);
    }
    // Nothing more is due: no second copy of any of them.
    await server.app.webhookWorker!.drain();
    expect(mine(receiver.received)).toHaveLength(3);
    const deliveries = await listDeliveries(server.handle, seller.sellerId, endpoint.id);
    expect(deliveries?.map((d) => [d.status, d.attempts, d.last_status_code])).toEqual([
      ['delivered', 1, 204],
      ['delivered', 1, 204],
      ['delivered', 1, 204],
    ]);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const seller = await server.seller();
    const endpoint = await endpointFor(server, seller.sellerId, receiver.url, ['customer.created']);
    const rotated = await rotateEndpointSecret(server.handle, box, seller.sellerId, endpoint.id);
    const client = new CustomersClient({ apiKey: seller.key, baseUrl: server.url, maxRetries: 0 });
    const bea = await client.customers.create({ first_name: 'Bea', last_name: 'B', email: 'bea@example.com' });
    const [request] = (await receiver.waitUntil((all) => all.some((r) => r.event?.data?.customer?.id === bea.id))).filter(
      (r) => r.event?.data?.customer?.id === bea.id,
    );
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated!.secret]) {
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toEqual(request!.event);
    }
  });
});

describe('webhook delivery failures (SQLite, fake time)', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // No worker in the app: each test drives its own, on its own clock.
    server = await startTestServer('sqlite');
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** A seller with one endpoint at `url`, one customer created (one delivery due), and a worker on a manual clock. */
  async function oneDelivery(url: string, options: { allowPrivate?: boolean; timeoutMs?: number } = {}) {
    const seller = await server.seller();
    const endpoint = await endpointFor(server, seller.sellerId, url);
    const created = await server.call('POST', '/api/customers', { key: seller.key, body: { first_name: 'A', last_name: 'B', email: 'a@example.com' } });
    expect(created.status).toBe(201);
    // Starts after the write: the delivery is due at once.
    const clock = manualClock(Date.now() + 1);
    const worker = new DeliveryWorker({ database: server.handle, secrets: box, clock, random: () => 0, allowPrivate: true, ...options });
    const deliveries = async () => (await listDeliveries(server.handle, seller.sellerId, endpoint.id))!;
    const requests = () => receiver.received.filter((r) => r.event?.data?.customer?.seller_id === seller.sellerId);
    return { seller, endpoint, clock, worker, deliveries, requests };
  }

  it('retries a receiver answering 500 after 5 s, 1 min, 5 min, … then gives up and marks the endpoint failing', async () => {
    receiver.answerWith(() => ({ status: 500 }));
    const { seller, endpoint, clock, worker, deliveries, requests } = await oneDelivery(receiver.url);
    expect((await worker.drain()).attempts).toBe(1);
    let [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: 500 });
    expect(Date.parse(delivery!.next_attempt_at!) - clock.now()).toBe(5000);

    for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      // A millisecond early: nothing is sent.
      clock.advance(delay - 1);
      expect((await worker.drain()).attempts).toBe(0);
      clock.advance(1);
      expect((await worker.drain()).attempts).toBe(1);
      expect(requests()).toHaveLength(i + 2);
    }
    [delivery] = await deliveries();
    expect(delivery).toMatchObject({ status: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, next_attempt_at: null });
    expect(await findEndpoint(server.handle, seller.sellerId, endpoint.id)).toMatchObject({ failing: true });
    // Every attempt of one event carries its id.
    expect(new Set(requests().map((r) => r.headers['webhook-id'])).size).toBe(1);

    // A later success (the next change) clears the failing mark.
    receiver.answerWith(() => ({ status: 200 }));
    const customerId = requests()[0]!.event.data.customer.id;
    expect((await server.call('DELETE', `/api/customers/${customerId}`, { key: seller.key })).status).toBe(204);
    clock.advance(1000);
    // The worker may already have sent it (its last attempt's nudge looks again 20 ms later, on its own): drain
    // and count what the receiver got, not what this drain did.
    await worker.drain();
    expect(requests().filter((r) => r.event.type === 'customer.deleted')).toHaveLength(1);
    expect(await findEndpoint(server.handle, seller.sellerId, endpoint.id)).toMatchObject({ failing: false, failing_since: null });
    await worker.stop();
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    receiver.answerWith((request) =>
      request.headers['webhook-id'] ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : { status: 204 },
    );
    const { worker, deliveries, requests } = await oneDelivery(receiver.url);
    await worker.drain();
    expect(requests()).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'retrying', attempts: 1, last_status_code: 302 });
    await worker.stop();
  });

  it('refuses loopback and private addresses without --allow-private-webhooks, named or resolved', async () => {
    receiver.answerWith(() => ({ status: 204 }));
    const port = new URL(receiver.url).port;
    const byAddress = await oneDelivery(receiver.url, { allowPrivate: false });
    await byAddress.worker.drain();
    expect((await byAddress.deliveries())[0]).toMatchObject({
      status: 'retrying',
      last_status_code: null,
      last_error: 'Not a public address',
    });
    const byName = await oneDelivery(`http://localhost:${port}/hooks`, { allowPrivate: false });
    await byName.worker.drain();
    expect((await byName.deliveries())[0]).toMatchObject({
      status: 'retrying',
      last_error: 'Resolves only to non-public addresses',
    });
    expect([...byAddress.requests(), ...byName.requests()]).toEqual([]);
    await byAddress.worker.stop();
    await byName.worker.stop();
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    receiver.answerWith(() => 'hang');
    const { worker, deliveries } = await oneDelivery(receiver.url, { timeoutMs: 200 });
    await worker.drain();
    expect((await deliveries())[0]).toMatchObject({ status: 'retrying', last_status_code: null, last_error: 'Timed out after 200 ms' });
    await worker.stop();
  });
});
