import { randomBytes } from 'node:crypto';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { endpointHealthReport } from './endpoint-health-report.js';
import { createSecretBox } from './secret-box.js';

const DAY = 86_400_000;
// The whole retry schedule is about three days (75.6 h without jitter, 83.2 h with the most of it): four days pass
// all of it whatever the jitter.
const SCHEDULE_MS = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay * 1.1, 0);
const PAST_THE_SCHEDULE = 4 * DAY;

// The test clock on the server (issue 38): moving a seller's test clock on walks a failing test endpoint's whole
// retry schedule now, without the test sleeping or waiting on the wall clock (the worker is drained: the test
// counts attempts, never time), and marks the endpoint failing; live deliveries, live timestamps and live keys
// never move.
describe.each(DIALECTS)('the test clock on %s', (dialect) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    // No poll in between: the worker runs when nudged (after each write) and when the test drains it.
    server = await startTestServer(dialect, {
      webhooks: { secrets: createSecretBox(randomBytes(32)), allowPrivate: true, pollIntervalMs: 3_600_000, random: () => 0.999 },
    });
    receiver = await startWebhookReceiver();
    receiver.answerWith(() => ({ status: 500 }));
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('moving it past the retry schedule delivers a failing test endpoint to the end and marks it failing; live stays', async () => {
    expect(SCHEDULE_MS).toBeLessThan(PAST_THE_SCHEDULE);
    const seller = await server.seller();
    const test = await server.key(seller.sellerId, { mode: 'test' });
    const keys = { live: seller.key, test: test.key };
    const endpoints: Record<string, string> = {};
    for (const [mode, key] of Object.entries(keys)) {
      const created = await server.call('POST', '/api/webhook_endpoints', { key, body: { url: `${receiver.url}?mode=${mode}` } });
      expect(created.status).toBe(201);
      endpoints[mode] = created.json.id;
    }
    const worker = server.app.webhookWorker!;
    const before = Date.now();
    const customers: Record<string, any> = {};
    for (const [mode, key] of Object.entries(keys)) {
      customers[mode] = (await server.call('POST', '/api/customers', { key, body: newCustomer({ email: `${mode}@example.com` }) })).json;
    }
    await worker.drain();
    const sent = (mode: string) => receiver.received.filter((request) => request.event?.data?.customer?.seller_id === seller.sellerId && request.event.livemode === (mode === 'live'));
    expect([sent('live').length, sent('test').length]).toEqual([1, 1]);
    // The live delivery's first retry, an hour away (not 5 s: a slow machine must not make it due in real time
    // while the test runs); the test clock must leave it exactly there.
    const liveRetryAt = new Date(Date.now() + 3_600_000).toISOString();
    await server.handle.db.updateTable('webhook_deliveries').set({ next_attempt_at: liveRetryAt }).where('endpoint_id', '=', endpoints.live!).execute();

    const clockBefore = await server.call('GET', '/api/test_clock', { key: keys.test });
    expect(clockBefore.status).toBe(200);
    expect(Date.parse(clockBefore.json.now)).toBeGreaterThanOrEqual(before);
    const moved = await server.call('POST', '/api/test_clock', { key: keys.test, body: { advance_ms: PAST_THE_SCHEDULE } });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.json.now) - Date.now()).toBeGreaterThan(PAST_THE_SCHEDULE - DAY);
    expect(moved.json.frozen).toBe(false);

    // (The move's answer already nudged the worker: the drain waits for that run too, and what it did is counted
    // where it lands, at the receiver and in the attempts kept.)
    await worker.drain();
    // Every retry of the test delivery, and nothing of the live one.
    expect([sent('live').length, sent('test').length]).toEqual([1, WEBHOOK_MAX_ATTEMPTS]);
    const kept = await server.handle.db.selectFrom('webhook_delivery_attempts').select('endpoint_id').where('endpoint_id', 'in', [endpoints.live!, endpoints.test!]).execute();
    expect(kept.filter((row) => row.endpoint_id === endpoints.test).length).toBe(WEBHOOK_MAX_ATTEMPTS);
    expect(kept.filter((row) => row.endpoint_id === endpoints.live).length).toBe(1);
    const rows = await server.handle.db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', 'attempts', 'next_attempt_at', 'given_up_at'])
      .where('seller_id', '=', seller.sellerId)
      .execute();
    const byMode = (mode: string) => rows.find((row) => row.endpoint_id === endpoints[mode])!;
    expect(byMode('test')).toMatchObject({ attempts: WEBHOOK_MAX_ATTEMPTS, next_attempt_at: null });
    expect(byMode('test').given_up_at).not.toBeNull();
    expect(byMode('live')).toMatchObject({ attempts: 1, given_up_at: null });
    expect(new Date(byMode('live').next_attempt_at!).toISOString()).toBe(liveRetryAt);

    const health = async (mode: string) => (await endpointHealthReport(server.handle, endpoints[mode]!, new Date())).health;
    expect(await health('test')).toBe('failing');
    expect(await health('live')).toBe('healthy');
    const failing = await server.handle.db.selectFrom('webhook_endpoints').select(['id', 'failing_since', 'disabled_at']).where('seller_id', '=', seller.sellerId).execute();
    expect(failing.find((row) => row.id === endpoints.test)).toMatchObject({ disabled_at: null });
    expect(failing.find((row) => row.id === endpoints.test)!.failing_since).not.toBeNull();
    expect(failing.find((row) => row.id === endpoints.live)!.failing_since).toBeNull();

    // Timestamps: test objects are stamped on the test clock from now on, live ones on the wall clock; what exists
    // keeps its timestamps (no object is hidden or moved).
    const later = { live: Date.now(), test: Date.now() + PAST_THE_SCHEDULE };
    for (const [mode, key] of Object.entries(keys)) {
      const made = (await server.call('POST', '/api/customers', { key, body: newCustomer({ email: `${mode}.2@example.com` }) })).json;
      expect(Date.parse(made.created_at)).toBeGreaterThanOrEqual(later[mode as 'live' | 'test'] - 1000);
      expect(Date.parse(made.created_at)).toBeLessThan(later[mode as 'live' | 'test'] + DAY);
      const listed = (await server.call('GET', '/api/customers', { key })).json.data.map((customer: { id: string }) => customer.id);
      expect(listed).toEqual([made.id, customers[mode].id]);
      expect((await server.call('GET', `/api/customers/${customers[mode].id}`, { key })).json.created_at).toBe(customers[mode].created_at);
    }
    // A live key can neither read nor move it.
    expect((await server.call('GET', '/api/test_clock', { key: keys.live })).status).toBe(403);
    expect((await server.call('POST', '/api/test_clock', { key: keys.live, body: { advance_ms: 1 } })).status).toBe(403);
  });

  it('never goes back, and expires test keys on the test clock (live keys on the wall clock)', async () => {
    const seller = await server.seller();
    const inADay = new Date(Date.now() + DAY).toISOString();
    const testKey = (await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'expiring test', mode: 'test', expiresAt: inADay })).key;
    const liveKey = (await createApiKey(server.handle, { sellerId: seller.sellerId, name: 'expiring live', expiresAt: inADay })).key;
    const now = (await server.call('GET', '/api/test_clock', { key: testKey })).json.now;
    const back = await server.call('POST', '/api/test_clock', { key: testKey, body: { now: new Date(Date.parse(now) - 60_000).toISOString() } });
    expect(back.status).toBe(400);
    expect(back.json.message).toMatch(/^now: the test clock cannot go back: /);
    const target = new Date(Date.parse(now) + 2 * DAY).toISOString();
    const set = await server.call('POST', '/api/test_clock', { key: testKey, body: { now: target } });
    expect(set.status).toBe(200);
    expect(Date.parse(set.json.now)).toBeGreaterThanOrEqual(Date.parse(target));
    // The test key's day is over on the test clock: 401 as for any expired key. The live key's is not.
    expect((await server.call('GET', '/api/customers', { key: testKey })).status).toBe(401);
    expect((await server.call('GET', '/api/customers', { key: liveKey })).status).toBe(200);
    // Another seller's test clock never moved.
    const other = await server.seller();
    const otherTest = await server.key(other.sellerId, { mode: 'test' });
    const otherNow = Date.parse((await server.call('GET', '/api/test_clock', { key: otherTest.key })).json.now);
    expect(otherNow).toBeLessThan(Date.now() + 60_000);
  });
});
