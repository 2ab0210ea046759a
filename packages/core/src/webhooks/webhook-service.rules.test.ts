import { describe, expect, it } from 'vitest';
import { createCustomerService } from '../customers/customer-service.js';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { MemoryWebhookStore } from '../store/memory-webhook-store.js';
import type { SellerContext } from '../types.js';
import { createWebhookService } from './webhook-service.js';

// The webhook service's rules as a caller sees them, over core's memory stores with a clock the test moves:
// updates, the cap, idempotency, secret rotation, the 30-day event horizon, replays and test mode.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-25T09:00:00.000Z');
const url = 'https://crm.example.com/hooks';
const seller: SellerContext = { sellerId: 's1', customerLimit: 10_000 };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function setup(options: { secrets?: string[] } = {}) {
  let at = START;
  let secrets = 0;
  const clock = () => new Date(at).toISOString();
  const customerStore = new MemoryCustomerStore();
  const store = new MemoryWebhookStore(customerStore);
  const webhooks = createWebhookService({
    store,
    clock,
    newSecret: () => options.secrets?.[secrets++] ?? `whsec_${String(secrets++).padStart(4, 'A')}`,
  });
  const customers = createCustomerService({ store: customerStore, clock });
  return {
    store,
    webhooks,
    customers,
    clock,
    moveTo: (ms: number) => {
      at = ms;
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('webhook endpoint updates', () => {
  it('changes the URL (normalized), the version and the description, and refuses a URL another endpoint has', async () => {
    const { webhooks } = setup();
    const a = await webhooks.createEndpoint(seller, { url });
    const b = await webhooks.createEndpoint(seller, { url: `${url}/b` });
    const moved = await webhooks.updateEndpoint(seller, a.id, { url: 'HTTPS://CRM.example.com:443/new' });
    expect(moved.url).toBe('https://crm.example.com/new');
    expect((await webhooks.getEndpoint(seller, a.id)).url).toBe('https://crm.example.com/new');
    // Its own URL again is no clash.
    expect((await webhooks.updateEndpoint(seller, a.id, { url: 'https://crm.example.com/new' })).url).toBe('https://crm.example.com/new');
    expect(await refusal(webhooks.updateEndpoint(seller, a.id, { url: `${url}/b` }))).toEqual({
      status: 409,
      message: `url ${url}/b already has a webhook endpoint in this account; edit that one instead`,
    });
    expect((await webhooks.getEndpoint(seller, b.id)).url).toBe(`${url}/b`);
    expect(await refusal(webhooks.updateEndpoint(seller, a.id, { url: 'ftp://crm.example.com' }))).toEqual({
      status: 400,
      message: 'url must be an http or https URL',
    });
    expect(await refusal(webhooks.updateEndpoint(seller, a.id, { api_version: '2020-01-01' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^api_version must be one of: /),
    });
    const described = await webhooks.updateEndpoint(seller, a.id, { description: 'CRM', events: ['customer.deleted'] });
    expect(described).toMatchObject({ description: 'CRM', events: ['customer.deleted'], url: 'https://crm.example.com/new' });
  });

  it('keeps the time an endpoint was first disabled, and enabling clears it', async () => {
    const { webhooks, moveTo } = setup();
    const { id } = await webhooks.createEndpoint(seller, { url });
    moveTo(START + HOUR);
    const disabled = await webhooks.updateEndpoint(seller, id, { disabled: true });
    expect(disabled).toMatchObject({ disabled: true, disabled_at: '2026-11-25T10:00:00.000Z' });
    moveTo(START + 2 * HOUR);
    expect(await webhooks.updateEndpoint(seller, id, { disabled: true })).toMatchObject({ disabled: true, disabled_at: '2026-11-25T10:00:00.000Z' });
    expect(await webhooks.updateEndpoint(seller, id, { disabled: false })).toMatchObject({ disabled: false, disabled_at: null });
    moveTo(START + 3 * HOUR);
    expect(await webhooks.updateEndpoint(seller, id, { disabled: true })).toMatchObject({ disabled_at: '2026-11-25T12:00:00.000Z' });
  });

  it('checks the body before the id, and answers a missing or malformed id as not found', async () => {
    const { webhooks } = setup();
    const missing = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    expect(await refusal(webhooks.updateEndpoint(seller, 'nope', { description: 1 }))).toMatchObject({ status: 400 });
    for (const id of ['nope', missing]) {
      expect(await refusal(webhooks.updateEndpoint(seller, id, { description: 'x' }))).toEqual({ status: 404, message: 'Webhook endpoint not found' });
      expect(await refusal(webhooks.updateEndpoint(seller, id, { disabled: true }))).toEqual({ status: 404, message: 'Webhook endpoint not found' });
      expect(await refusal(webhooks.rotateSecret(seller, id, undefined))).toEqual({ status: 404, message: 'Webhook endpoint not found' });
      expect(await refusal(webhooks.deleteEndpoint(seller, id))).toEqual({ status: 404, message: 'Webhook endpoint not found' });
    }
  });

  it('finds an endpoint by its id in capitals or as a urn:uuid', async () => {
    const { webhooks } = setup();
    const { id } = await webhooks.createEndpoint(seller, { url });
    expect((await webhooks.getEndpoint(seller, id.toUpperCase())).id).toBe(id);
    expect((await webhooks.updateEndpoint(seller, id.toUpperCase(), { description: 'x' })).description).toBe('x');
    await webhooks.deleteEndpoint(seller, id.toUpperCase());
    expect(await refusal(webhooks.getEndpoint(seller, id))).toMatchObject({ status: 404 });
  });
});

describe('webhook endpoint creation', () => {
  it('refuses a description past 200 characters (counted as characters, not UTF-16 units) or with a control character', async () => {
    const { webhooks } = setup();
    const emoji = '😀'.repeat(200);
    expect((await webhooks.createEndpoint(seller, { url, description: emoji })).description).toBe(emoji);
    expect(await refusal(webhooks.createEndpoint(seller, { url: `${url}/2`, description: `${emoji}x` }))).toEqual({
      status: 400,
      message: 'description must be at most 200 characters',
    });
    for (const bad of ['a\u0001b', 'tab\there', 'a\u001fb', 'a\u007fb', 'a\u009fb', 'a\u061cb', 'a\u200eb', 'a\u200fb', 'a\u202ab', 'a\u2066b', 'a\u2069b']) {
      expect(await refusal(webhooks.updateEndpoint(seller, (await webhooks.listEndpoints(seller, '')).data[0]!.id, { description: bad }))).toEqual({
        status: 400,
        message: 'description must not contain control or bidirectional formatting characters',
      });
    }
    for (const fine of ['a\u00a0b', 'a\u2065b', 'a\u206ab', 'a\u2010b', 'Grüße 👋']) {
      expect((await webhooks.createEndpoint(seller, { url: `${url}/${fine.length}${fine.codePointAt(1)}`, description: fine })).description).toBe(fine);
    }
  });

  it('lists the events asked for in the spec order without repeats, every event when none are named', async () => {
    const { webhooks } = setup();
    expect((await webhooks.createEndpoint(seller, { url })).events).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
    const picked = await webhooks.createEndpoint(seller, { url: `${url}/2`, events: ['customer.deleted', 'customer.created', 'customer.deleted'] });
    expect(picked.events).toEqual(['customer.created', 'customer.deleted']);
  });

  it("caps endpoints at the seller's own limit, in the singular for one, at 10 when none is set", async () => {
    const { webhooks } = setup();
    const one = { ...seller, sellerId: 'one', webhookEndpointLimit: 1 };
    await webhooks.createEndpoint(one, { url });
    expect(await refusal(webhooks.createEndpoint(one, { url: `${url}/2` }))).toEqual({
      status: 403,
      message: 'Webhook endpoint limit reached: this account may have at most 1 webhook endpoint; delete one first, or ask the operator to raise the limit',
    });
    const unset = { ...seller, sellerId: 'unset', webhookEndpointLimit: null };
    for (let i = 0; i < 10; i++) await webhooks.createEndpoint(unset, { url: `${url}/${i}` });
    expect(await refusal(webhooks.createEndpoint(unset, { url: `${url}/10` }))).toMatchObject({ status: 403, message: expect.stringContaining('at most 10 webhook endpoints;') });
    // A deleted endpoint frees its place.
    const { data } = await webhooks.listEndpoints(unset, 'limit=1');
    await webhooks.deleteEndpoint(unset, data[0]!.id);
    expect((await webhooks.createEndpoint(unset, { url: `${url}/10` })).url).toBe(`${url}/10`);
  });

  it('answers an Idempotency-Key again within 24 hours only, and refuses a malformed one before anything', async () => {
    const { webhooks, moveTo } = setup();
    expect(await refusal(webhooks.createEndpoint(seller, { url }, { idempotencyKey: 'has space' }))).toEqual({
      status: 400,
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (! to ~, no spaces)',
    });
    expect((await webhooks.listEndpoints(seller, '')).data).toEqual([]);
    const first = await webhooks.createEndpoint(seller, { url }, { idempotencyKey: 'k1' });
    moveTo(START + DAY - 1);
    expect(await webhooks.createEndpoint(seller, { url }, { idempotencyKey: 'k1' })).toEqual(first);
    expect(await refusal(webhooks.createEndpoint(seller, { url: `${url}/2` }, { idempotencyKey: 'k1' }))).toMatchObject({ status: 400 });
    // Another seller's key of the same name is its own.
    const other = await webhooks.createEndpoint({ ...seller, sellerId: 's2' }, { url }, { idempotencyKey: 'k1' });
    expect(other.id).not.toBe(first.id);
    moveTo(START + DAY);
    // Expired: a new create, which finds the URL taken.
    expect(await refusal(webhooks.createEndpoint(seller, { url }, { idempotencyKey: 'k1' }))).toMatchObject({ status: 409 });
  });

  it('stamps a test-mode endpoint with the seller’s test clock, a live one with the host’s', async () => {
    const { webhooks } = setup();
    const testSeller: SellerContext = { ...seller, mode: 'test', testClockOffsetMs: DAY };
    expect((await webhooks.createEndpoint(testSeller, { url })).created_at).toBe('2026-11-26T09:00:00.000Z');
    expect((await webhooks.createEndpoint({ ...seller, testClockOffsetMs: DAY }, { url })).created_at).toBe('2026-11-25T09:00:00.000Z');
    // Test and live endpoints never meet.
    expect((await webhooks.listEndpoints(testSeller, '')).data.map((e) => e.created_at)).toEqual(['2026-11-26T09:00:00.000Z']);
    expect((await webhooks.listEndpoints(seller, '')).data.map((e) => e.created_at)).toEqual(['2026-11-25T09:00:00.000Z']);
  });
});

describe('webhook endpoint lists', () => {
  it('has no next page when the last page is exactly full', async () => {
    const { webhooks, moveTo } = setup();
    for (let i = 0; i < 4; i++) {
      moveTo(START + i);
      await webhooks.createEndpoint(seller, { url: `${url}/${i}` });
    }
    const first = await webhooks.listEndpoints(seller, 'limit=2');
    expect(first.has_more).toBe(true);
    const second = await webhooks.listEndpoints(seller, `limit=2&cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.data, ...second.data].map((e) => e.url)).toEqual([3, 2, 1, 0].map((i) => `${url}/${i}`));
    expect((await webhooks.listEndpoints(seller, 'limit=4')).has_more).toBe(false);
    expect((await webhooks.listEndpoints(seller, '')).data).toHaveLength(4);
  });
});

describe('secret rotation', () => {
  it('keeps the previous secret signing for the overlap asked for (24 hours by default), shown until it ends', async () => {
    const { webhooks, store, moveTo } = setup({ secrets: ['whsec_AAAA', 'whsec_BBBB', 'whsec_CCCC', 'whsec_DDDD'] });
    const created = await webhooks.createEndpoint(seller, { url });
    expect(created.secret).toBe('whsec_AAAA');
    expect(created.previous_secret_expires_at).toBeNull();
    const rotated = await webhooks.rotateSecret(seller, created.id, undefined);
    expect(rotated).toMatchObject({ secret: 'whsec_BBBB', previous_secret_expires_at: '2026-11-26T09:00:00.000Z' });
    expect(rotated).not.toHaveProperty('previous_secret');
    const stored = await store.findEndpoint({ sellerId: 's1', mode: 'live' }, created.id);
    expect(stored).toMatchObject({ secret: 'whsec_BBBB', previousSecret: 'whsec_AAAA', previousSecretExpiresAt: '2026-11-26T09:00:00.000Z' });
    moveTo(START + DAY - 1);
    expect((await webhooks.getEndpoint(seller, created.id)).previous_secret_expires_at).toBe('2026-11-26T09:00:00.000Z');
    moveTo(START + DAY);
    expect((await webhooks.getEndpoint(seller, created.id)).previous_secret_expires_at).toBeNull();
    expect((await webhooks.listEndpoints(seller, '')).data[0]!.previous_secret_expires_at).toBeNull();
    const empty = await webhooks.rotateSecret(seller, created.id, {});
    expect(empty.previous_secret_expires_at).toBe('2026-11-27T09:00:00.000Z');
    const none = await webhooks.rotateSecret(seller, created.id, { overlap_seconds: 0 });
    expect(none).toMatchObject({ secret: 'whsec_DDDD', previous_secret_expires_at: null });
    expect(await store.findEndpoint({ sellerId: 's1', mode: 'live' }, created.id)).toMatchObject({ previousSecret: null, previousSecretExpiresAt: null });
  });
});

describe('events and replays', () => {
  async function withFailedEvents(count: number, step = 1) {
    const context = setup();
    const endpoint = await context.webhooks.createEndpoint(seller, { url, events: ['customer.created'] });
    for (let i = 0; i < count; i++) {
      context.moveTo(START + i * step);
      await context.customers.create(seller, { ...ada, email: `ada${i}@example.com` });
    }
    const { data } = await context.webhooks.listEvents(seller, 'limit=100');
    const all = (await context.store.listEvents({ sellerId: 's1', mode: 'live' }, { limit: 100_000, notBefore: '' })).reverse();
    for (const event of all) context.store.setDeliveryState('s1', event.id, endpoint.id, 'failed', event.created_at);
    return { ...context, endpointId: endpoint.id, events: all, firstPage: data };
  }

  it('lists events within the 30-day horizon only, and filters by creation time', async () => {
    const { webhooks, moveTo, events } = await withFailedEvents(3, DAY);
    moveTo(START + 2 * DAY);
    const ids = async (query: string) => (await webhooks.listEvents(seller, query)).data.map((e) => e.id);
    expect(await ids('')).toEqual([events[2]!.id, events[1]!.id, events[0]!.id]);
    expect(await ids('created_after=2026-11-26T09:00:00Z')).toEqual([events[2]!.id, events[1]!.id]);
    expect(await ids('created_before=2026-11-26T09:00:00Z')).toEqual([events[0]!.id]);
    expect(await ids('created_after=2026-11-26T09:00:00Z&created_before=2026-11-27T09:00:00Z')).toEqual([events[1]!.id]);
    moveTo(START + 30 * DAY);
    expect(await ids('')).toEqual([events[2]!.id, events[1]!.id, events[0]!.id]);
    expect((await webhooks.getEvent(seller, events[0]!.id)).id).toBe(events[0]!.id);
    moveTo(START + 30 * DAY + 1);
    expect(await ids('')).toEqual([events[2]!.id, events[1]!.id]);
    expect(await refusal(webhooks.getEvent(seller, events[0]!.id))).toEqual({ status: 404, message: 'Event not found' });
    expect(await refusal(webhooks.getEvent(seller, 'nope'))).toEqual({ status: 404, message: 'Event not found' });
  });

  it('replays within the horizon and before `until` only', async () => {
    const { webhooks, moveTo, endpointId, store, events } = await withFailedEvents(3, DAY);
    moveTo(START + 31 * DAY);
    const path = { since: '2026-01-01T00:00:00Z' };
    // The first event is past the 30-day horizon, whatever `since` says.
    expect(await webhooks.replay(seller, endpointId, path)).toEqual({ queued: 2, has_more: false, next_cursor: null });
    for (const event of events) store.setDeliveryState('s1', event.id, endpointId, 'failed', event.created_at);
    expect(await webhooks.replay(seller, endpointId, { ...path, until: '2026-11-27T09:00:00Z' })).toMatchObject({ queued: 1 });
    for (const event of events) store.setDeliveryState('s1', event.id, endpointId, 'failed', event.created_at);
    expect(await webhooks.replay(seller, endpointId, { since: '2026-11-27T09:00:00Z' })).toMatchObject({ queued: 1 });
    expect(await refusal(webhooks.replay(seller, endpointId, { since: 'yesterday' }))).toMatchObject({ status: 400 });
    expect(await refusal(webhooks.replay(seller, endpointId, { ...path, until: 'tomorrow' }))).toMatchObject({ status: 400, message: expect.stringMatching(/^until /) });
  });

  it('queues at most 1000 events per replay and pages the rest with a cursor bound to the request', async () => {
    const { webhooks, endpointId, moveTo } = await withFailedEvents(1001);
    // `until` defaults to now, exclusive: the last event's millisecond must have passed.
    moveTo(START + 1001);
    const body = { since: '2026-11-01T00:00:00Z' };
    const first = await webhooks.replay(seller, endpointId, body);
    expect(first).toMatchObject({ queued: 1000, has_more: true, next_cursor: expect.any(String) });
    expect(await refusal(webhooks.replay(seller, endpointId, { since: '2026-11-02T00:00:00Z', cursor: first.next_cursor }))).toMatchObject({ status: 400 });
    expect(await webhooks.replay(seller, endpointId, { ...body, cursor: first.next_cursor })).toEqual({ queued: 1, has_more: false, next_cursor: null });
  });
});
