// Webhook deliveries of the HTTP mock to a real node:http receiver, verified with the standardwebhooks
// library; retries run on an injected timer, so the server's schedule is checked without waiting for it.
import { WEBHOOK_RETRY_DELAYS_MS, type CustomerEvent } from '@customers-api/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type Delivery, type MockServer, type Schedule, type WebhookEndpoint } from '../src/index.js';
import { ada, key, startReceiver, type Receiver } from './support.js';

const SHOP = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const OTHER = '0d9c8b7a-6f5e-4d3c-8b2a-190f8e7d6c5b';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** Retry timers the dispatcher asked for; a test runs them when it chooses. */
interface Timer {
  delayMs: number;
  run: () => void;
  cancelled: boolean;
}
const timers: Timer[] = [];
let timerWaits: Array<(timer: Timer) => void> = [];
const schedule: Schedule = (delayMs, run) => {
  const timer = { delayMs, run, cancelled: false };
  timers.push(timer);
  timerWaits.forEach((resolve) => resolve(timer));
  timerWaits = [];
  return () => void (timer.cancelled = true);
};
/** The next retry timer asked for (a failed attempt has been recorded by then). */
const nextTimer = (seen = timers.length) =>
  timers.length > seen ? Promise.resolve(timers[seen]!) : new Promise<Timer>((resolve) => timerWaits.push(resolve));

let mock: MockServer;
let url: string;
let receiver: Receiver;
let seedEndpoint: WebhookEndpoint;

const api = (method: string, path: string, body?: unknown, apiKey = key('a'), headers: Record<string, string> = {}) =>
  fetch(`${url}/api/customers${path}`, {
    method,
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const control = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}/__mock${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
};
const deliveries = async (): Promise<Delivery[]> => (await control('GET', '/deliveries')).body.data;
/** Waits for every attempt under way (and, here, retries nothing: no retry is waiting when it is called). */
const settle = async (): Promise<Delivery[]> => (await control('POST', '/deliveries/retry')).body.data;
const verified = (secret: string) => receiver.received.map(({ body, headers }) => new Webhook(secret).verify(body, headers) as CustomerEvent);

beforeAll(async () => {
  receiver = await startReceiver();
  const seed = parseSeed({
    sellers: [
      { id: SHOP, keys: [{ key: key('a') }], customers: [{ ...ada, email: 'seeded@example.com' }] },
      { id: OTHER, keys: [{ key: key('b') }] },
    ],
    webhooks: [{ url: receiver.url, secret: SECRET }],
  });
  mock = await createMockServer({ seed, webhooks: { schedule, random: () => 0 } });
  url = await mock.listen(0);
  seedEndpoint = mock.webhooks.list()[0]!;
});
afterEach(async () => {
  await control('POST', '/reset');
  receiver.received.length = 0;
  receiver.reply = () => ({ status: 204 });
  timers.length = 0;
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

describe('webhook deliveries of the HTTP mock', () => {
  it('delivers create, patch and delete as signed POSTs, in order, sequences 1 to 3, each exactly once', async () => {
    const created = await (await api('POST', '', ada)).json();
    expect((await api('PATCH', `/${created.id}`, { status: 'suspended' })).status).toBe(200);
    expect((await api('DELETE', `/${created.id}`)).status).toBe(204);
    await receiver.waitFor(3);
    const listed = await settle();

    const events = verified(SECRET);
    expect(events.map((event) => [event.type, event.data.sequence])).toEqual([
      ['customer.created', 1],
      ['customer.updated', 2],
      ['customer.deleted', 3],
    ]);
    expect(events[1]).toMatchObject({ data: { changed_fields: ['status'], customer: { id: created.id, status: 'suspended' } } });
    expect(events[2]!.data.customer).toEqual({ id: created.id, seller_id: SHOP });
    expect(receiver.received.map((got) => got.headers['webhook-id'])).toEqual(events.map((event) => event.id));
    expect(receiver.received.every((got) => got.method === 'POST' && got.path === '/webhooks')).toBe(true);
    expect(listed.map((delivery) => [delivery.event.id, delivery.state, delivery.attempts.map((a) => a.status)])).toEqual(
      events.map((event) => [event.id, 'delivered', [204]]),
    );
    expect(receiver.received).toHaveLength(3);
  });

  it('makes first attempts to an endpoint one after another, in the order of the changes', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => ({ ...ada, email: `burst${i}@example.com` }));
    await Promise.all(bodies.map((body) => api('POST', '', body)));
    await receiver.waitFor(bodies.length);
    const listed = await settle();
    expect(receiver.received.map((got) => got.headers['webhook-id'])).toEqual(listed.map((delivery) => delivery.event.id));
  });

  it('lists a delivery before the API has answered the change, and delivers nothing for refused requests or seeds', async () => {
    expect(await deliveries()).toEqual([]); // the seeded customer: a state, not a change
    const created = await (await api('POST', '', { ...ada, email: 'new@example.com' })).json();
    expect((await deliveries()).map((delivery) => delivery.event.data.customer.id)).toEqual([created.id]);

    expect((await api('POST', '', { ...ada, email: 'NEW@example.com' })).status).toBe(409);
    expect((await api('PATCH', `/${created.id}`, { email: 'not an email' })).status).toBe(400);
    expect((await api('DELETE', `/${created.id}`, undefined, key('a'), { Prefer: 'code=500' })).status).toBe(500);
    expect((await api('PATCH', `/${created.id}`, { status: 'inactive' }, key('b'))).status).toBe(404);
    await control('POST', '/next-responses', { operation: 'createCustomer', status: 503 });
    expect((await api('POST', '', { ...ada, email: 'other@example.com' })).status).toBe(503);
    expect(await settle()).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a receiver that answers 500 on core's schedule, then delivers; the webhook-id stays the event's", async () => {
    receiver.reply = () => ({ status: 500 });
    await api('POST', '', ada);
    const first = await nextTimer(0);
    expect(first.delayMs).toBe(5000);
    const [waiting] = await deliveries();
    expect(waiting).toMatchObject({ state: 'retrying', attempts: [{ status: 500, error: null }] });
    expect(Date.parse(waiting!.nextAttemptAt!) - Date.parse(waiting!.attempts[0]!.at)).toBeGreaterThanOrEqual(5000);

    first.run();
    const second = await nextTimer(1);
    expect(second.delayMs).toBe(60_000); // growing
    receiver.reply = () => ({ status: 200 });
    second.run();
    const [delivered] = await settle();
    expect(delivered).toMatchObject({ state: 'delivered', nextAttemptAt: null });
    expect(delivered!.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 200]);
    expect(new Set(receiver.received.map((got) => got.headers['webhook-id']))).toEqual(new Set([delivered!.event.id]));
    expect(verified(SECRET).map((event) => event.id)).toEqual([delivered!.event.id, delivered!.event.id, delivered!.event.id]);
  });

  it('gives up after the last retry and marks the endpoint failing, until a delivery succeeds again', async () => {
    receiver.reply = () => ({ status: 500 });
    await api('POST', '', ada);
    const delays: number[] = [];
    for (let retry = 0; retry < WEBHOOK_RETRY_DELAYS_MS.length; retry++) {
      const timer = await nextTimer(retry);
      delays.push(timer.delayMs);
      timer.run();
    }
    const [given] = await settle();
    expect(delays).toEqual(WEBHOOK_RETRY_DELAYS_MS);
    expect(given).toMatchObject({ state: 'failed', nextAttemptAt: null });
    expect(given!.attempts).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    expect(timers).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length);
    expect((await control('GET', '/webhooks')).body.data[0].failing).toBe(true);

    receiver.reply = () => ({ status: 202 });
    await api('POST', '', { ...ada, email: 'again@example.com' });
    await settle();
    expect((await control('GET', '/webhooks')).body.data[0].failing).toBe(false);
  });

  it('counts a redirect as a failure without following it, and retries now on request', async () => {
    receiver.reply = () => ({ status: 302, headers: { Location: '/elsewhere' } });
    await api('POST', '', ada);
    const timer = await nextTimer(0);
    receiver.reply = () => ({ status: 204 });
    const [delivered] = (await control('POST', '/deliveries/retry')).body.data as Delivery[];
    expect(timer.cancelled).toBe(true);
    expect(delivered!.attempts.map((attempt) => attempt.status)).toEqual([302, 204]);
    expect(receiver.received.map((got) => got.path)).toEqual(['/webhooks', '/webhooks']);
  });
});

describe('webhook endpoints through the control API', () => {
  it("adds endpoints for some event types or one seller's events, lists them with secrets, and removes them", async () => {
    const second = await startReceiver('/only-deletes');
    try {
      const added = await control('POST', '/webhooks', { url: second.url, events: ['customer.deleted'], sellerId: OTHER });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({ url: second.url, events: ['customer.deleted'], sellerId: OTHER, failing: false });
      expect(added.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect((await control('GET', '/webhooks')).body.data).toEqual([seedEndpoint, added.body]);

      const mine = await (await api('POST', '', ada)).json();
      await api('DELETE', `/${mine.id}`);
      const theirs = await (await api('POST', '', ada, key('b'))).json();
      await api('DELETE', `/${theirs.id}`, undefined, key('b'));
      await settle();
      expect(receiver.received).toHaveLength(4);
      expect(second.received.map((got) => new Webhook(added.body.secret).verify(got.body, got.headers))).toEqual([
        expect.objectContaining({ type: 'customer.deleted', data: { customer: { id: theirs.id, seller_id: OTHER }, sequence: 2 } }),
      ]);

      expect((await control('DELETE', `/webhooks/${added.body.id}`)).status).toBe(204);
      expect((await control('DELETE', `/webhooks/${added.body.id}`)).body).toEqual({ error: 'Not Found', message: `No webhook endpoint has the id ${added.body.id}` });
      expect((await deliveries()).every((delivery) => delivery.endpointId === seedEndpoint.id)).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('refuses a bad endpoint with a 400 naming the entry', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'body.url: is required: an http or https URL'],
      [{ url: 'ftp://example.com/' }, 'body.url: must be an http or https URL'],
      [{ url: receiver.url, events: ['customer.merged'] }, 'body.events[0]: must be one of customer.created, customer.updated, customer.deleted'],
      [{ url: receiver.url, sellerId: '11111111-2222-4333-8444-555555555555' }, 'body.sellerId: is not the id of a seller the mock knows'],
      [{ url: receiver.url, secret: 'whsec_' }, 'body.secret: must be whsec_ followed by base64, e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ];
    for (const [body, message] of cases) {
      expect(await control('POST', '/webhooks', body)).toEqual({ status: 400, body: { error: 'Bad Request', message } });
    }
    expect((await control('PUT', '/webhooks')).status).toBe(405);
    // The same rules from JavaScript.
    expect(() => mock.webhooks.add({ url: 'ftp://example.com/' })).toThrow('endpoint.url: must be an http or https URL');
    expect(() => mock.webhooks.add({ url: receiver.url, sellerId: '11111111-2222-4333-8444-555555555555' })).toThrow(
      'endpoint.sellerId: is not the id of a seller the mock knows',
    );
    expect(mock.webhooks.list()).toEqual([seedEndpoint]);
  });

  it("resets to the seed's endpoints (same id and secret), forgetting deliveries and cancelling retries", async () => {
    receiver.reply = () => ({ status: 500 });
    await control('POST', '/webhooks', { url: receiver.url });
    await api('POST', '', ada);
    await nextTimer(0);
    await nextTimer(1);
    expect(await control('POST', '/reset')).toEqual({ status: 204, body: undefined });
    expect(timers.every((timer) => timer.cancelled)).toBe(true);
    expect(await deliveries()).toEqual([]);
    expect((await control('GET', '/webhooks')).body.data).toEqual([seedEndpoint]);
  });
});
