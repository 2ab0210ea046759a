import { describe, expect, it } from 'vitest';
import { createCustomerService } from '../customers/customer-service.js';
import type { SellerContext } from '../types.js';
import type { StoredWebhookEndpoint } from '../webhooks/webhook-store.js';
import { MemoryWebhookStore } from './memory-webhook-store.js';
import { MemoryCustomerStore } from './memory-store.js';

// The memory webhook store as the mocks use it: its order when many rows share one instant (then the id decides),
// replay pages, updates that change only what they name, and copies out.

const AT = '2026-11-25T09:00:00.000Z';
const live: SellerContext = { sellerId: 's1', customerLimit: 100 };
const tenant = { sellerId: 's1', mode: 'live' as const };

function endpoint(id: string, over: Partial<StoredWebhookEndpoint> = {}): StoredWebhookEndpoint {
  return {
    id,
    sellerId: 's1',
    mode: 'live',
    url: `https://${id}.example.com/h`,
    events: ['customer.created', 'customer.updated', 'customer.deleted'],
    description: 'CRM',
    apiVersion: '2026-11-26',
    disabledAt: null,
    failingSince: null,
    secret: 'whsec_a',
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: AT,
    ...over,
  };
}

/** A store with one endpoint and `n` customer.created events, all at the same instant. */
async function withEvents(n: number) {
  const customerStore = new MemoryCustomerStore();
  const store = new MemoryWebhookStore(customerStore);
  await store.insertEndpoint(endpoint('e1'), { cap: 10 });
  const customers = createCustomerService({ store: customerStore, clock: () => AT });
  for (let i = 0; i < n; i++) await customers.create(live, { first_name: 'Ada', last_name: 'Lovelace', email: `a${i}@example.com` });
  const all = await store.listEvents(tenant, { limit: 100, notBefore: '' });
  return { store, all, ids: all.map((event) => event.id) };
}

const replay = { since: AT, until: '2026-11-26T00:00:00.000Z', onlyUndelivered: false, now: AT };

describe('MemoryWebhookStore: rows of one instant', () => {
  it('lists events newest first by id, and a page after one of them holds only the smaller ids', async () => {
    const { store, ids } = await withEvents(6);
    expect(ids).toEqual([...ids].sort().reverse());
    const after = { createdAt: AT, id: ids[2]! };
    expect((await store.listEvents(tenant, { limit: 100, after, notBefore: '' })).map((e) => e.id)).toEqual(ids.slice(3));
  });

  it('lists endpoints created at one instant by id, newest first, and pages after one', async () => {
    const store = new MemoryWebhookStore(new MemoryCustomerStore());
    for (const id of ['e2', 'e4', 'e1', 'e3']) await store.insertEndpoint(endpoint(id), { cap: 10 });
    expect((await store.listEndpoints(tenant, { limit: 10 })).map((e) => e.id)).toEqual(['e4', 'e3', 'e2', 'e1']);
    expect((await store.listEndpoints(tenant, { limit: 10, after: { createdAt: AT, id: 'e3' } })).map((e) => e.id)).toEqual(['e2', 'e1']);
  });

  it('replays oldest first by id, strictly after the cursor, and says more only when another matched', async () => {
    const { store, ids } = await withEvents(5);
    const oldestFirst = [...ids].reverse();
    for (const id of ids) store.setDeliveryState('s1', id, 'e1', 'delivered', AT);
    const seen: string[] = [];
    store.onDue(({ event }) => seen.push(event.id));
    const first = await store.replayEvents(tenant, 'e1', { ...replay, limit: 2 });
    expect(first).toEqual({ kind: 'queued', queued: 2, last: { createdAt: AT, id: oldestFirst[1] }, more: true });
    const rest = await store.replayEvents(tenant, 'e1', { ...replay, limit: 3, after: first.kind === 'queued' ? first.last : undefined });
    // Exactly a page of 3 left: no more.
    expect(rest).toEqual({ kind: 'queued', queued: 3, last: { createdAt: AT, id: oldestFirst[4] }, more: false });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(oldestFirst);
  });

  it('puts a replayed delivery back among the undelivered ones, and leaves delivered ones out of that filter', async () => {
    const { store, ids } = await withEvents(2);
    store.setDeliveryState('s1', ids[0]!, 'e1', 'delivered', AT);
    expect((await store.listEvents(tenant, { limit: 10, undeliveredTo: 'e1', notBefore: '' })).map((e) => e.id)).toEqual([ids[1]]);
    await store.replayEvents(tenant, 'e1', { ...replay, limit: 10 });
    expect((await store.listEvents(tenant, { limit: 10, undeliveredTo: 'e1', notBefore: '' })).map((e) => e.id)).toEqual(ids);
    expect(await store.replayEvents(tenant, 'e1', { ...replay, limit: 10 })).toMatchObject({ queued: 0 });
  });
});

describe('MemoryWebhookStore endpoints', () => {
  it('changes only what an update names', async () => {
    const store = new MemoryWebhookStore(new MemoryCustomerStore());
    await store.insertEndpoint(endpoint('e1', { disabledAt: AT }), { cap: 10 });
    const url = await store.updateEndpoint(tenant, 'e1', { url: 'https://new.example.com/h' });
    expect(url).toEqual({ kind: 'updated', endpoint: endpoint('e1', { disabledAt: AT, url: 'https://new.example.com/h' }) });
    const version = await store.updateEndpoint(tenant, 'e1', { apiVersion: '2026-06-01', disabledAt: null });
    expect(version).toEqual({ kind: 'updated', endpoint: endpoint('e1', { url: 'https://new.example.com/h', apiVersion: '2026-06-01' }) });
  });

  it('hands out copies: changing a found endpoint changes nothing stored', async () => {
    const store = new MemoryWebhookStore(new MemoryCustomerStore());
    await store.insertEndpoint(endpoint('e1'), { cap: 10 });
    const found = (await store.findEndpoint(tenant, 'e1'))!;
    found.url = 'https://changed.example.com';
    found.events.pop();
    expect(await store.findEndpoint(tenant, 'e1')).toEqual(endpoint('e1'));
  });

  it('creates anew for an Idempotency-Key whose endpoint was deleted since', async () => {
    const store = new MemoryWebhookStore(new MemoryCustomerStore());
    const idempotency = { key: 'k1', fingerprint: 'f', expiresAt: '2026-11-26T09:00:00.000Z' } as never;
    expect(await store.insertEndpoint(endpoint('e1'), { cap: 10, idempotency })).toMatchObject({ kind: 'created' });
    expect(await store.insertEndpoint(endpoint('e2'), { cap: 10, idempotency })).toMatchObject({ kind: 'idempotent_replay', endpoint: { id: 'e1' } });
    expect(await store.deleteEndpoint(tenant, 'e1')).toBe(true);
    expect(await store.insertEndpoint(endpoint('e2'), { cap: 10, idempotency })).toEqual({ kind: 'created', endpoint: endpoint('e2') });
  });
});

describe('MemoryWebhookStore replay of an endpoint without events', () => {
  it('queues nothing', async () => {
    const store = new MemoryWebhookStore(new MemoryCustomerStore());
    await store.insertEndpoint(endpoint('e1'), { cap: 10 });
    expect(await store.replayEvents(tenant, 'e1', { ...replay, limit: 10 })).toEqual({ kind: 'queued', queued: 0, last: undefined, more: false });
  });
});

describe('MemoryWebhookStore: an endpoint sees only its own deliveries', () => {
  it('counts as undelivered to an endpoint only the events it was due, and replays delivered ones strictly after the cursor', async () => {
    const { store, ids } = await withEvents(5);
    const oldestFirst = [...ids].reverse();
    for (const id of ids) store.setDeliveryState('s1', id, 'e1', 'delivered', AT);
    const again = await store.replayEvents(tenant, 'e1', { ...replay, limit: 10, after: { createdAt: AT, id: oldestFirst[1]! } });
    expect(again).toEqual({ kind: 'queued', queued: 3, last: { createdAt: AT, id: oldestFirst[4] }, more: false });
    // An endpoint added later was due none of these events.
    await store.insertEndpoint(endpoint('e2'), { cap: 10 });
    expect(await store.listEvents(tenant, { limit: 10, undeliveredTo: 'e2', notBefore: '' })).toEqual([]);
  });
});
