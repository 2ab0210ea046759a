// Endpoints a seller registers through the public API (/api/webhook_endpoints, issue 37) on the HTTP mock: each
// change is delivered at once, signed with the secret the API answered (and the previous one during a rotation's
// overlap), its outcome reported to the events API (undelivered_to), and a replay sends the missed ones again.
import type { CustomerEvent } from '@customers-api/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer, type Schedule } from '../src/index.js';
import { ada, key, startReceiver, type Receiver } from './support.js';

const SHOP = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
/** Retries never fire by themselves here: a failed attempt stays failed until the test replays it. */
const schedule: Schedule = () => () => {};

let mock: MockServer;
let url: string;
let receiver: Receiver;

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'X-API-Key': key('a'), 'Content-Type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.status === 204 ? undefined : await response.json() };
};

beforeAll(async () => {
  receiver = await startReceiver();
  mock = await createMockServer({ seed: parseSeed({ sellers: [{ id: SHOP, keys: [{ key: key('a') }] }] }), webhooks: { schedule, random: () => 0 } });
  url = await mock.listen(0);
});
afterAll(async () => {
  await mock.close();
  await receiver.close();
});

describe('webhook endpoints registered through the API, on the HTTP mock', () => {
  it('delivers each change in real time, signed with the answered secret, and catches up after an outage with one replay', async () => {
    const endpoint = (await call('POST', '/api/webhook_endpoints', { url: receiver.url })).body;
    expect(endpoint.secret).toMatch(/^whsec_/);
    const created = (await call('POST', '/api/customers', ada)).body;
    const [first] = await receiver.waitFor(1);
    const event = new Webhook(endpoint.secret).verify(first!.body, first!.headers) as CustomerEvent;
    expect(event).toMatchObject({ type: 'customer.created', data: { customer: { id: created.id } } });
    expect((await call('GET', `/api/events/${event.id}`)).body).toEqual(event);
    await mock.webhooks.settle();
    expect((await call('GET', `/api/events?undelivered_to=${endpoint.id}`)).body.data).toEqual([]);

    // The receiver is down: the next two changes fail (their retries wait on a timer that never fires).
    receiver.reply = () => ({ status: 503 });
    await call('PATCH', `/api/customers/${created.id}`, { status: 'suspended' });
    await call('PATCH', `/api/customers/${created.id}`, { status: 'active' });
    await receiver.waitFor(3);
    await mock.webhooks.settle();
    const missed = (await call('GET', `/api/events?undelivered_to=${endpoint.id}`)).body.data as CustomerEvent[];
    expect(missed.map((e) => e.data.sequence)).toEqual([3, 2]);

    // Back up: replaying queues nothing still waiting for a retry; once given up (failed), one replay sends both.
    receiver.reply = () => ({ status: 204 });
    for (const e of missed) mock.api.webhookStore.setDeliveryState(SHOP, e.id, endpoint.id, 'failed', new Date().toISOString());
    const replay = await call('POST', `/api/webhook_endpoints/${endpoint.id}/replay`, { since: '2026-01-01T00:00:00Z', only_undelivered: true });
    expect(replay.body).toEqual({ queued: 2, has_more: false, next_cursor: null });
    const all = await receiver.waitFor(5);
    const replayed = all.slice(3).map((got) => new Webhook(endpoint.secret).verify(got.body, got.headers) as CustomerEvent);
    expect(replayed.map((e) => [e.id, e.data.sequence])).toEqual([...missed].reverse().map((e) => [e.id, e.data.sequence]));
    await mock.webhooks.settle();
    expect((await call('GET', `/api/events?undelivered_to=${endpoint.id}`)).body.data).toEqual([]);
  });

  it('signs with the old and the new secret during a rotation’s overlap', async () => {
    const endpoint = (await call('POST', '/api/webhook_endpoints', { url: `${receiver.url}?rotation` })).body;
    const rotated = (await call('POST', `/api/webhook_endpoints/${endpoint.id}/rotate_secret`)).body;
    const seen = receiver.received.length;
    await call('POST', '/api/customers', { ...ada, email: 'rotation@example.com' });
    // Both of the seller's endpoints get the change; this one is the rotated endpoint's.
    const got = (await receiver.waitFor(seen + 2)).slice(seen).find((request) => request.path.endsWith('?rotation'));
    expect(got!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(endpoint.secret).verify(got!.body, got!.headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(got!.body, got!.headers)).not.toThrow();
  });
});
