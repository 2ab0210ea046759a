import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomerStore } from '../store.js';
import type { StoredWebhookEndpoint, WebhookStore } from '../webhooks/webhook-store.js';
import { sampleCustomer } from './store-contract.js';
import { live, testData } from './tenants.js';

/** What the webhook store contract needs from one kind of store. */
export interface WebhookStoreHarness {
  /** The customer store whose changes become events, and the webhook store; called once per suite. */
  open(): Promise<{ customers: CustomerStore; webhooks: WebhookStore }>;
  /** A seller that may own customers and endpoints (SQL stores need its row). */
  newSeller(): Promise<string>;
  /** Resolves once the changes made so far are events (memory: a microtask; SQL: at once). */
  settle(): Promise<void>;
  /** Sets a delivery's state around the store, as a delivery attempt would. */
  setDeliveryState(sellerId: string, eventId: string, endpointId: string, state: 'delivered' | 'failed'): Promise<void>;
}

const EVERY_TYPE = ['customer.created', 'customer.updated', 'customer.deleted'] as const;
const LONG_AGO = '2000-01-01T00:00:00.000Z';
const FAR_AHEAD = '9999-01-01T00:00:00.000Z';
let counter = 0;

/**
 * An endpoint as core's service builds one: every field set, a unique URL unless overridden.
 *
 * @example
 * await webhooks.insertEndpoint(sampleEndpoint(sellerId), { cap: 10 });
 */
export function sampleEndpoint(sellerId: string, overrides: Partial<StoredWebhookEndpoint> = {}): StoredWebhookEndpoint {
  counter += 1;
  const id = globalThis.crypto.randomUUID();
  return {
    id,
    sellerId,
    mode: 'live',
    url: `https://hooks.example.com/${id}`,
    events: [...EVERY_TYPE],
    description: '',
    apiVersion: '2026-11-26',
    disabledAt: null,
    failingSince: null,
    secret: `whsec_${btoa(id.slice(0, 24))}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    // Distinct, increasing creation times: the list order is by them.
    createdAt: new Date(Date.UTC(2026, 10, 25, 9, 0, 0, counter)).toISOString(),
    ...overrides,
  };
}

/**
 * The one statement of what every {@link WebhookStore} must do: tenancy on every method, the endpoint cap and URL
 * uniqueness per seller, idempotent creates, partial updates, rotation, events recorded only for the endpoints
 * subscribed when the change happened, the event filters and order, and replays that queue each delivery once
 * and read a bounded number of rows.
 *
 * @example
 * describeWebhookStoreContract('MemoryWebhookStore', memoryWebhookHarness);
 */
export function describeWebhookStoreContract(name: string, harness: WebhookStoreHarness): void {
  describe(`${name} satisfies the WebhookStore contract`, () => {
    let customers: CustomerStore;
    let webhooks: WebhookStore;
    beforeAll(async () => {
      ({ customers, webhooks } = await harness.open());
    });

    async function sellerWithEndpoint(overrides: Partial<StoredWebhookEndpoint> = {}) {
      const sellerId = await harness.newSeller();
      const endpoint = sampleEndpoint(sellerId, overrides);
      expect((await webhooks.insertEndpoint(endpoint, { cap: 10 })).kind).toBe('created');
      return { sellerId, endpoint };
    }

    async function createCustomer(sellerId: string) {
      // Distinct creation times, so the order by time is known.
      const at = new Date(Date.now() + counter++).toISOString();
      const customer = sampleCustomer(sellerId, { created_at: at, updated_at: at });
      const result = await customers.insertCustomer(customer, { customerLimit: 1000 });
      if (result.kind !== 'created') throw new Error(result.kind);
      await harness.settle();
      return customer;
    }

    async function allEvents(sellerId: string, filters: Record<string, string> = {}) {
      return webhooks.listEvents(live(sellerId), { limit: 100, notBefore: LONG_AGO, ...filters });
    }

    describe('test mode is a tenancy boundary', () => {
      it('never finds, lists, changes, rotates or deletes an endpoint of the other mode', async () => {
        const sellerId = await harness.newSeller();
        const liveOne = sampleEndpoint(sellerId);
        // The same URL in both modes, and a cap of one each: neither counts against the other.
        const testOne = sampleEndpoint(sellerId, { mode: 'test', url: liveOne.url });
        expect((await webhooks.insertEndpoint(liveOne, { cap: 1 })).kind).toBe('created');
        expect((await webhooks.insertEndpoint(testOne, { cap: 1 })).kind).toBe('created');
        for (const [mine, other] of [
          [live(sellerId), testOne],
          [testData(sellerId), liveOne],
        ] as const) {
          expect(await webhooks.findEndpoint(mine, other.id)).toBeUndefined();
          expect((await webhooks.listEndpoints(mine, { limit: 10 })).map((e) => e.id)).not.toContain(other.id);
          expect((await webhooks.updateEndpoint(mine, other.id, { description: 'x' })).kind).toBe('not_found');
          expect(await webhooks.rotateSecret(mine, other.id, 'whsec_AAAA', null)).toBeUndefined();
          expect(await webhooks.deleteEndpoint(mine, other.id)).toBe(false);
          const replay = { since: LONG_AGO, until: FAR_AHEAD, onlyUndelivered: false, limit: 10, now: new Date().toISOString() };
          expect((await webhooks.replayEvents(mine, other.id, replay)).kind).toBe('not_found');
        }
        expect(await webhooks.findEndpoint(testData(sellerId), testOne.id)).toEqual(testOne);
        expect((await webhooks.insertEndpoint(sampleEndpoint(sellerId, { mode: 'test' }), { cap: 1 })).kind).toBe('limit_reached');
      });

      it('records a change as an event of its own mode, for that mode’s endpoints only', async () => {
        const sellerId = await harness.newSeller();
        const liveEndpoint = sampleEndpoint(sellerId);
        const testEndpoint = sampleEndpoint(sellerId, { mode: 'test' });
        await webhooks.insertEndpoint(liveEndpoint, { cap: 10 });
        await webhooks.insertEndpoint(testEndpoint, { cap: 10 });
        const at = new Date(Date.now() + counter++).toISOString();
        const testCustomer = sampleCustomer(sellerId, { livemode: false, created_at: at, updated_at: at });
        expect((await customers.insertCustomer(testCustomer, { customerLimit: 10 })).kind).toBe('created');
        await harness.settle();
        const testEvents = await webhooks.listEvents(testData(sellerId), { limit: 10, notBefore: LONG_AGO });
        expect(testEvents.map((e) => [e.type, e.livemode])).toEqual([['customer.created', false]]);
        expect(await allEvents(sellerId)).toEqual([]);
        const id = testEvents[0]!.id;
        expect(await webhooks.findEvent(live(sellerId), id, LONG_AGO)).toBeUndefined();
        expect((await webhooks.findEvent(testData(sellerId), id, LONG_AGO))?.id).toBe(id);
        expect(await allEvents(sellerId, { undeliveredTo: liveEndpoint.id })).toEqual([]);
        const pending = await webhooks.listEvents(testData(sellerId), { limit: 10, notBefore: LONG_AGO, undeliveredTo: testEndpoint.id });
        expect(pending.map((e) => e.id)).toEqual([id]);

        const liveCustomer = await createCustomer(sellerId);
        const liveEvents = await allEvents(sellerId);
        expect(liveEvents.map((e) => [e.type, e.livemode, e.data.customer.id])).toEqual([['customer.created', true, liveCustomer.id]]);
        expect((await webhooks.listEvents(testData(sellerId), { limit: 10, notBefore: LONG_AGO })).map((e) => e.id)).toEqual([id]);
      });
    });

    describe('endpoints', () => {
      it('finds, lists and changes only the seller’s own endpoints', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        const other = await harness.newSeller();
        expect(await webhooks.findEndpoint(live(sellerId), endpoint.id)).toEqual(endpoint);
        expect(await webhooks.findEndpoint(live(other), endpoint.id)).toBeUndefined();
        expect(await webhooks.listEndpoints(live(other), { limit: 10 })).toEqual([]);
        expect((await webhooks.updateEndpoint(live(other), endpoint.id, { description: 'x' })).kind).toBe('not_found');
        expect(await webhooks.rotateSecret(live(other), endpoint.id, 'whsec_AAAA', null)).toBeUndefined();
        expect(await webhooks.deleteEndpoint(live(other), endpoint.id)).toBe(false);
        expect(await webhooks.findEndpoint(live(sellerId), endpoint.id)).toEqual(endpoint);
      });

      it('lists newest first, a page at a time after a position', async () => {
        const sellerId = await harness.newSeller();
        const made = [sampleEndpoint(sellerId), sampleEndpoint(sellerId), sampleEndpoint(sellerId)];
        for (const endpoint of made) await webhooks.insertEndpoint(endpoint, { cap: 10 });
        const first = await webhooks.listEndpoints(live(sellerId), { limit: 2 });
        expect(first.map((e) => e.id)).toEqual([made[2]!.id, made[1]!.id]);
        const after = { createdAt: first[1]!.createdAt, id: first[1]!.id };
        expect((await webhooks.listEndpoints(live(sellerId), { limit: 2, after })).map((e) => e.id)).toEqual([made[0]!.id]);
      });

      it('refuses one endpoint past the cap and a URL the seller has, not another seller’s URL', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        expect((await webhooks.insertEndpoint(sampleEndpoint(sellerId, { url: endpoint.url }), { cap: 10 })).kind).toBe('url_taken');
        expect((await webhooks.insertEndpoint(sampleEndpoint(sellerId), { cap: 1 })).kind).toBe('limit_reached');
        const other = await harness.newSeller();
        expect((await webhooks.insertEndpoint(sampleEndpoint(other, { url: endpoint.url }), { cap: 1 })).kind).toBe('created');
      });

      it('holds the cap under concurrent creates', async () => {
        const sellerId = await harness.newSeller();
        const results = await Promise.all(
          Array.from({ length: 5 }, () => webhooks.insertEndpoint(sampleEndpoint(sellerId), { cap: 2 })),
        );
        expect(results.filter((r) => r.kind === 'created')).toHaveLength(2);
        expect(await webhooks.listEndpoints(live(sellerId), { limit: 10 })).toHaveLength(2);
      });

      it('answers a create again under its idempotency key, per seller', async () => {
        const sellerId = await harness.newSeller();
        const idempotency = { key: 'key-1', fingerprint: 'f1', expiresAt: FAR_AHEAD };
        const first = sampleEndpoint(sellerId);
        expect((await webhooks.insertEndpoint(first, { cap: 10, idempotency })).kind).toBe('created');
        const again = await webhooks.insertEndpoint(sampleEndpoint(sellerId), { cap: 10, idempotency });
        expect(again).toEqual({ kind: 'idempotent_replay', endpoint: first, fingerprint: 'f1' });
        const other = await harness.newSeller();
        expect((await webhooks.insertEndpoint(sampleEndpoint(other), { cap: 10, idempotency })).kind).toBe('created');
      });

      it('updates only what is given and keeps URLs unique', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        const second = sampleEndpoint(sellerId);
        await webhooks.insertEndpoint(second, { cap: 10 });
        const changed = await webhooks.updateEndpoint(live(sellerId), endpoint.id, {
          events: ['customer.deleted'],
          description: 'CRM',
          disabledAt: '2026-11-26T00:00:00.000Z',
        });
        expect(changed).toEqual({
          kind: 'updated',
          endpoint: { ...endpoint, events: ['customer.deleted'], description: 'CRM', disabledAt: '2026-11-26T00:00:00.000Z' },
        });
        expect((await webhooks.updateEndpoint(live(sellerId), endpoint.id, { url: second.url })).kind).toBe('url_taken');
        expect((await webhooks.updateEndpoint(live(sellerId), endpoint.id, { url: endpoint.url })).kind).toBe('updated');
      });

      it('rotates: the current secret becomes the previous one until the given time, or is dropped', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        const rotated = await webhooks.rotateSecret(live(sellerId), endpoint.id, 'whsec_bmV3', '2026-11-26T00:00:00.000Z');
        expect(rotated).toMatchObject({ secret: 'whsec_bmV3', previousSecret: endpoint.secret, previousSecretExpiresAt: '2026-11-26T00:00:00.000Z' });
        const dropped = await webhooks.rotateSecret(live(sellerId), endpoint.id, 'whsec_bmV4', null);
        expect(dropped).toMatchObject({ secret: 'whsec_bmV4', previousSecret: null, previousSecretExpiresAt: null });
        expect(await webhooks.findEndpoint(live(sellerId), endpoint.id)).toEqual(dropped);
      });

      it('deletes once', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        expect(await webhooks.deleteEndpoint(live(sellerId), endpoint.id)).toBe(true);
        expect(await webhooks.deleteEndpoint(live(sellerId), endpoint.id)).toBe(false);
        expect(await webhooks.findEndpoint(live(sellerId), endpoint.id)).toBeUndefined();
      });
    });

    describe('events', () => {
      it('records a change as an event only when an endpoint of the seller was subscribed to its type', async () => {
        const quiet = await harness.newSeller();
        await createCustomer(quiet);
        expect(await allEvents(quiet)).toEqual([]);
        const { sellerId } = await sellerWithEndpoint({ events: ['customer.deleted'] });
        await createCustomer(sellerId);
        expect(await allEvents(sellerId)).toEqual([]);
        const { sellerId: subscribed } = await sellerWithEndpoint();
        const customer = await createCustomer(subscribed);
        const [event] = await allEvents(subscribed);
        expect(event).toMatchObject({ type: 'customer.created', data: { customer: { id: customer.id }, sequence: 1 } });
        expect(event!.id).toMatch(/^evt_[0-9a-f]{32}$/);
      });

      it('lists newest first with every filter, finds by id, and keeps sellers apart', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        const ada = await createCustomer(sellerId);
        const grace = await createCustomer(sellerId);
        await customers.updateCustomer(live(sellerId), ada.id, { status: 'suspended' }, new Date(Date.now() + 60_000 + counter++).toISOString());
        await harness.settle();
        const events = await allEvents(sellerId);
        expect(events.map((e) => e.type)).toEqual(['customer.updated', 'customer.created', 'customer.created']);
        expect(events.map((e) => e.created_at)).toEqual([...events.map((e) => e.created_at)].sort().reverse());
        expect((await allEvents(sellerId, { type: 'customer.updated' })).map((e) => e.type)).toEqual(['customer.updated']);
        expect(await allEvents(sellerId, { customerId: grace.id })).toEqual([events[1]]);
        expect(await allEvents(sellerId, { createdFrom: events[0]!.created_at })).toEqual([events[0]]);
        expect(await allEvents(sellerId, { createdBefore: events[1]!.created_at })).toEqual([events[2]]);
        const after = { createdAt: events[0]!.created_at, id: events[0]!.id };
        expect(await webhooks.listEvents(live(sellerId), { limit: 1, after, notBefore: LONG_AGO })).toEqual([events[1]]);
        expect(await webhooks.listEvents(live(sellerId), { limit: 10, notBefore: FAR_AHEAD })).toEqual([]);
        expect(await webhooks.findEvent(live(sellerId), events[0]!.id, LONG_AGO)).toEqual(events[0]);
        expect(await webhooks.findEvent(live(sellerId), events[0]!.id, FAR_AHEAD)).toBeUndefined();
        const other = await harness.newSeller();
        expect(await webhooks.findEvent(live(other), events[0]!.id, LONG_AGO)).toBeUndefined();
        expect(await allEvents(other)).toEqual([]);
        await harness.setDeliveryState(sellerId, events[1]!.id, endpoint.id, 'delivered');
        expect((await allEvents(sellerId, { undeliveredTo: endpoint.id })).map((e) => e.id)).toEqual([events[0]!.id, events[2]!.id]);
      });
    });

    describe('replay', () => {
      const window = { since: LONG_AGO, until: FAR_AHEAD, now: new Date().toISOString() };

      it('queues given-up deliveries (and delivered ones unless only undelivered), oldest first, each once', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        for (let i = 0; i < 4; i++) await createCustomer(sellerId);
        const [newest, third, second, oldest] = await allEvents(sellerId);
        await harness.setDeliveryState(sellerId, oldest!.id, endpoint.id, 'failed');
        await harness.setDeliveryState(sellerId, second!.id, endpoint.id, 'delivered');
        await harness.setDeliveryState(sellerId, third!.id, endpoint.id, 'failed');
        // newest stays pending: already waiting, neither queued nor counted.
        const only = await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: true, limit: 10 });
        expect(only).toEqual({ kind: 'queued', queued: 2, last: { createdAt: third!.created_at, id: third!.id }, more: false });
        const again = await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: true, limit: 10 });
        expect(again).toMatchObject({ queued: 0, more: false });
        const all = await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: false, limit: 10 });
        expect(all).toMatchObject({ queued: 1, last: { id: second!.id } });
        expect((await allEvents(sellerId, { undeliveredTo: endpoint.id })).map((e) => e.id)).toEqual(
          [newest, third, second, oldest].map((e) => e!.id),
        );
      });

      it('stops at the limit and goes on after the last position', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        for (let i = 0; i < 3; i++) await createCustomer(sellerId);
        const events = (await allEvents(sellerId)).reverse();
        for (const event of events) await harness.setDeliveryState(sellerId, event.id, endpoint.id, 'failed');
        const first = await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: true, limit: 2 });
        expect(first).toEqual({ kind: 'queued', queued: 2, last: { createdAt: events[1]!.created_at, id: events[1]!.id }, more: true });
        if (first.kind !== 'queued') return;
        const rest = await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: true, limit: 2, after: first.last });
        expect(rest).toMatchObject({ queued: 1, more: false, last: { id: events[2]!.id } });
      });

      it('queues nothing for a disabled endpoint or another seller’s', async () => {
        const { sellerId, endpoint } = await sellerWithEndpoint();
        const other = await harness.newSeller();
        expect(await webhooks.replayEvents(live(other), endpoint.id, { ...window, onlyUndelivered: false, limit: 10 })).toEqual({ kind: 'not_found' });
        await webhooks.updateEndpoint(live(sellerId), endpoint.id, { disabledAt: window.now });
        expect(await webhooks.replayEvents(live(sellerId), endpoint.id, { ...window, onlyUndelivered: false, limit: 10 })).toEqual({ kind: 'disabled' });
      });
    });
  });
}
