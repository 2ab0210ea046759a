import { describe, expect, it } from 'vitest';
import { createCustomerService } from '../customers/customer-service.js';
import type { SellerContext } from '../types.js';
import { createWebhookService } from '../webhooks/webhook-service.js';
import { type DueDelivery, MemoryWebhookStore } from './memory-webhook-store.js';
import { MemoryCustomerStore } from './memory-store.js';

// What a host that sends webhooks sees of the memory store (the mocks): due deliveries, the outcomes it reports
// and the endpoint's failing state, the test-data wipe and clear().

const live: SellerContext = { sellerId: 's1', customerLimit: 100 };
const test: SellerContext = { ...live, mode: 'test' };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const customerStore = new MemoryCustomerStore();
  const store = new MemoryWebhookStore(customerStore);
  const clock = () => '2026-11-25T09:00:00.000Z';
  return { store, webhooks: createWebhookService({ store, clock }), customers: createCustomerService({ store: customerStore, clock }) };
}

describe('MemoryWebhookStore deliveries', () => {
  it('tells each listener of each due delivery after the change, as copies, until it unsubscribes', async () => {
    const { store, webhooks, customers } = setup();
    const endpoint = await webhooks.createEndpoint(live, { url: 'https://a.example.com/h' });
    const first: DueDelivery[] = [];
    const second: DueDelivery[] = [];
    const stopFirst = store.onDue((due) => first.push(due));
    store.onDue((due) => second.push(due));
    const { customer } = await customers.create(live, ada);
    await tick();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ sellerId: 's1', mode: 'live', endpoint: { id: endpoint.id }, event: { type: 'customer.created', data: { customer: { id: customer.id } } } });
    expect(second).toEqual(first);
    // A copy: what a listener does to it changes nothing stored.
    first[0]!.endpoint.url = 'https://changed.example.com';
    expect((await webhooks.getEndpoint(live, endpoint.id)).url).toBe('https://a.example.com/h');
    stopFirst();
    await customers.update(live, customer.id, { status: 'suspended' });
    await tick();
    expect(first).toHaveLength(1);
    expect(second.map((due) => due.event.type)).toEqual(['customer.created', 'customer.updated']);
  });

  it('marks an endpoint failing from its first given-up delivery until one is delivered', async () => {
    const { store, webhooks, customers } = setup();
    const endpoint = await webhooks.createEndpoint(live, { url: 'https://a.example.com/h' });
    await customers.create(live, ada);
    await customers.create(live, { ...ada, email: 'b@example.com' });
    await tick();
    const [second, first] = (await webhooks.listEvents(live, '')).data;
    expect(store.setDeliveryState('s1', first!.id, endpoint.id, 'retrying', '2026-11-25T09:01:00.000Z')).toBe(true);
    expect(await webhooks.getEndpoint(live, endpoint.id)).toMatchObject({ failing: false, failing_since: null });
    store.setDeliveryState('s1', first!.id, endpoint.id, 'failed', '2026-11-25T09:02:00.000Z');
    store.setDeliveryState('s1', second!.id, endpoint.id, 'failed', '2026-11-25T09:03:00.000Z');
    expect(await webhooks.getEndpoint(live, endpoint.id)).toMatchObject({ failing: true, failing_since: '2026-11-25T09:02:00.000Z' });
    store.setDeliveryState('s1', second!.id, endpoint.id, 'delivered', '2026-11-25T09:04:00.000Z');
    expect(await webhooks.getEndpoint(live, endpoint.id)).toMatchObject({ failing: false, failing_since: null });
    // Undelivered means anything but delivered.
    expect((await webhooks.listEvents(live, `undelivered_to=${endpoint.id}`)).data.map((e) => e.id)).toEqual([first!.id]);
    // No such delivery: another event, endpoint, seller or mode.
    expect(store.setDeliveryState('s1', 'evt_nope', endpoint.id, 'delivered', '2026-11-25T09:05:00.000Z')).toBe(false);
    expect(store.setDeliveryState('s1', first!.id, '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 'delivered', '2026-11-25T09:05:00.000Z')).toBe(false);
    expect(store.setDeliveryState('s2', first!.id, endpoint.id, 'delivered', '2026-11-25T09:05:00.000Z')).toBe(false);
    expect(store.setDeliveryState('s1', first!.id, endpoint.id, 'delivered', '2026-11-25T09:05:00.000Z', 'test')).toBe(false);
    expect((await webhooks.listEvents(live, `undelivered_to=${endpoint.id}`)).data.map((e) => e.id)).toEqual([first!.id]);
  });

  it('records no event for a disabled endpoint or one not subscribed to the type, and forgets a deleted endpoint’s deliveries', async () => {
    const { store, webhooks, customers } = setup();
    const due: DueDelivery[] = [];
    store.onDue((d) => due.push(d));
    const deletes = await webhooks.createEndpoint(live, { url: 'https://a.example.com/d', events: ['customer.deleted'] });
    const off = await webhooks.createEndpoint(live, { url: 'https://a.example.com/off' });
    await webhooks.updateEndpoint(live, off.id, { disabled: true });
    await customers.create(live, ada);
    await tick();
    expect(due).toEqual([]);
    expect((await webhooks.listEvents(live, '')).data).toEqual([]);
    const all = await webhooks.createEndpoint(live, { url: 'https://a.example.com/all' });
    await customers.create(live, { ...ada, email: 'b@example.com' });
    await tick();
    expect(due.map((d) => d.endpoint.id)).toEqual([all.id]);
    const [event] = (await webhooks.listEvents(live, '')).data;
    await webhooks.deleteEndpoint(live, all.id);
    expect(store.setDeliveryState('s1', event!.id, all.id, 'delivered', '2026-11-25T09:05:00.000Z')).toBe(false);
    expect(deletes.id).not.toBe(all.id);
  });

  it('wipes a seller’s test endpoints, events and idempotency records only, and clear() forgets everything', async () => {
    const { store, webhooks, customers } = setup();
    for (const seller of [live, test, { ...test, sellerId: 's2' }]) {
      await webhooks.createEndpoint(seller, { url: 'https://a.example.com/h' }, { idempotencyKey: 'k' });
      await webhooks.createEndpoint(seller, { url: 'https://a.example.com/h2' });
      await customers.create(seller, ada);
    }
    await tick();
    expect(store.wipeTestData('s1')).toEqual({ endpoints: 2, events: 1 });
    expect(store.wipeTestData('s1')).toEqual({ endpoints: 0, events: 0 });
    expect((await webhooks.listEndpoints(test, '')).data).toEqual([]);
    expect((await webhooks.listEndpoints(live, '')).data).toHaveLength(2);
    expect((await webhooks.listEvents(live, '')).data).toHaveLength(1);
    expect((await webhooks.listEndpoints({ ...test, sellerId: 's2' }, '')).data).toHaveLength(2);
    // The test idempotency record went with its endpoint: the key makes a new endpoint now.
    const again = await webhooks.createEndpoint(test, { url: 'https://a.example.com/h' }, { idempotencyKey: 'k' });
    expect((await webhooks.listEndpoints(test, '')).data.map((e) => e.id)).toEqual([again.id]);
    // The live one is kept: the same key answers the live endpoint again.
    const liveAgain = await webhooks.createEndpoint(live, { url: 'https://a.example.com/h' }, { idempotencyKey: 'k' });
    expect((await webhooks.listEndpoints(live, '')).data.map((e) => e.id)).toContain(liveAgain.id);
    expect((await webhooks.listEndpoints(live, '')).data).toHaveLength(2);
    store.clear();
    expect((await webhooks.listEndpoints(live, '')).data).toEqual([]);
    expect((await webhooks.listEvents(live, '')).data).toEqual([]);
    expect((await webhooks.createEndpoint(live, { url: 'https://a.example.com/h' }, { idempotencyKey: 'k' })).id).not.toBe(liveAgain.id);
  });
});
