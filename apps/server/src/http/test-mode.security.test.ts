import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';

// Test mode is a tenancy boundary (issue 38): with a live key and a test key of one seller, no operation with one
// reads, lists, changes, counts against a limit or delivers an event of the other, in both directions, over real
// HTTP on both databases; and the one-call wipe removes test data only.

type Mode = 'live' | 'test';

describe.each(DIALECTS)('test mode isolation over HTTP on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A seller with a live and a test secret key. */
  async function sellerWithBothKeys(options: { customerLimit?: number } = {}) {
    const seller = await server.seller(options);
    const test = await server.key(seller.sellerId, { mode: 'test' });
    return { sellerId: seller.sellerId, keys: { live: seller.key, test: test.key } as Record<Mode, string> };
  }

  /** One of each thing a key can make: a customer (with an idempotency key), an endpoint, and an event. */
  async function makeAll(key: string, email: string, url: string) {
    const idempotency = { 'Idempotency-Key': 'same-key-in-both-modes' };
    const body = newCustomer({ email });
    const customer = await server.call('POST', '/api/customers', { key, body, headers: idempotency });
    expect(customer.status).toBe(201);
    const endpoint = await server.call('POST', '/api/webhook_endpoints', { key, body: { url } });
    expect(endpoint.status).toBe(201);
    const changed = await server.call('PATCH', `/api/customers/${customer.json.id}`, { key, body: { status: 'inactive' } });
    expect(changed.status).toBe(200);
    const events = await server.call('GET', '/api/events', { key });
    expect(events.json.data).toHaveLength(1);
    return { customer: customer.json, endpoint: endpoint.json, event: events.json.data[0], body, idempotency };
  }

  for (const [mine, theirs] of [
    ['live', 'test'],
    ['test', 'live'],
  ] as const) {
    it(`a ${mine} key never reads, lists, changes or deletes what a ${theirs} key made`, async () => {
      const { keys } = await sellerWithBothKeys();
      const email = `both.${crypto.randomUUID()}@example.com`;
      const url = `https://hooks.example.com/${crypto.randomUUID()}`;
      const other = await makeAll(keys[theirs], email, url);
      const key = keys[mine];
      expect(other.customer.livemode).toBe(theirs === 'live');
      expect(other.event.livemode).toBe(theirs === 'live');
      expect(other.event.data.customer.livemode).toBe(theirs === 'live');

      const customerPath = `/api/customers/${other.customer.id}`;
      expect((await server.call('GET', customerPath, { key })).status).toBe(404);
      expect((await server.call('PATCH', customerPath, { key, body: { status: 'active' } })).status).toBe(404);
      expect((await server.call('DELETE', customerPath, { key })).status).toBe(404);
      expect((await server.call('GET', '/api/customers', { key })).json.data).toEqual([]);
      expect((await server.call('GET', `/api/customers?email=${encodeURIComponent(email)}`, { key })).json.data).toEqual([]);

      const endpointPath = `/api/webhook_endpoints/${other.endpoint.id}`;
      expect((await server.call('GET', endpointPath, { key })).status).toBe(404);
      expect((await server.call('PATCH', endpointPath, { key, body: { description: 'x' } })).status).toBe(404);
      expect((await server.call('POST', `${endpointPath}/rotate_secret`, { key, body: {} })).status).toBe(404);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      expect((await server.call('POST', `${endpointPath}/replay`, { key, body: { since } })).status).toBe(404);
      expect((await server.call('DELETE', endpointPath, { key })).status).toBe(404);
      expect((await server.call('GET', '/api/webhook_endpoints', { key })).json.data).toEqual([]);

      expect((await server.call('GET', `/api/events/${other.event.id}`, { key })).status).toBe(404);
      expect((await server.call('GET', '/api/events', { key })).json.data).toEqual([]);
      expect((await server.call('GET', `/api/events?undelivered_to=${other.endpoint.id}`, { key })).status).toBe(400);

      // The same email, the same idempotency key and body, the same endpoint URL: no clash and no replay.
      const mineToo = await makeAll(key, email, url);
      expect(mineToo.customer.id).not.toBe(other.customer.id);
      expect(mineToo.customer.livemode).toBe(mine === 'live');
      const again = await server.call('POST', '/api/customers', { key, body: other.body, headers: other.idempotency });
      expect(again.json.id).toBe(mineToo.customer.id);

      // Each mode's change went to its own mode's endpoint only.
      const deliveries = await server.handle.db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select(['c.mode as changeMode', 'e.mode as endpointMode', 'c.customer_id'])
        .where('d.endpoint_id', 'in', [other.endpoint.id, mineToo.endpoint.id])
        .execute();
      expect(deliveries).toHaveLength(2);
      for (const row of deliveries) expect(row.changeMode).toBe(row.endpointMode);

      // Nothing of the other mode was changed by any of it.
      const theirsNow = await server.call('GET', customerPath, { key: keys[theirs] });
      expect(theirsNow.json).toMatchObject({ id: other.customer.id, email: other.customer.email, status: 'inactive' });
      expect((await server.call('GET', endpointPath, { key: keys[theirs] })).status).toBe(200);
    });
  }

  it('counts the plan limit in each mode apart, against the same limit', async () => {
    const { keys } = await sellerWithBothKeys({ customerLimit: 1 });
    expect((await server.call('POST', '/api/customers', { key: keys.live, body: newCustomer() })).status).toBe(201);
    expect((await server.call('POST', '/api/customers', { key: keys.test, body: newCustomer() })).status).toBe(201);
    expect((await server.call('POST', '/api/customers', { key: keys.test, body: newCustomer() })).status).toBe(403);
    expect((await server.call('POST', '/api/customers', { key: keys.live, body: newCustomer() })).status).toBe(403);
  });

  it('wipes the test data only, with a test key only, audited as test', async () => {
    const { sellerId, keys } = await sellerWithBothKeys();
    const live = await makeAll(keys.live, `wipe.${crypto.randomUUID()}@example.com`, `https://hooks.example.com/${crypto.randomUUID()}`);
    const test = await makeAll(keys.test, `wipe.${crypto.randomUUID()}@example.com`, `https://hooks.example.com/${crypto.randomUUID()}`);

    const refused = await server.call('DELETE', '/api/test_data', { key: keys.live });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'Forbidden', message: 'deleteTestData needs a test key (sk_test_ or rk_test_); this key is live' });

    const wiped = await server.call('DELETE', '/api/test_data', { key: keys.test });
    expect(wiped.status).toBe(200);
    expect(wiped.json).toEqual({ customers: 1, webhook_endpoints: 1, events: 1 });
    expect((await server.call('GET', `/api/customers/${test.customer.id}`, { key: keys.test })).status).toBe(404);
    expect((await server.call('GET', '/api/webhook_endpoints', { key: keys.test })).json.data).toEqual([]);
    expect((await server.call('GET', '/api/events', { key: keys.test })).json.data).toEqual([]);
    // The test plan count is back to zero, and the test idempotency key is free again.
    const fresh = await server.call('POST', '/api/customers', { key: keys.test, body: test.body, headers: test.idempotency });
    expect(fresh.status).toBe(201);
    expect(fresh.json.id).not.toBe(test.customer.id);

    expect((await server.call('GET', `/api/customers/${live.customer.id}`, { key: keys.live })).json).toMatchObject({ id: live.customer.id, livemode: true });
    expect((await server.call('GET', `/api/webhook_endpoints/${live.endpoint.id}`, { key: keys.live })).status).toBe(200);
    expect((await server.call('GET', `/api/events/${live.event.id}`, { key: keys.live })).json).toEqual(live.event);

    const audit = await listAuditRows(server.handle, { sellerId, limit: 50 });
    const wipeRows = audit.filter((row) => row.action === 'test_data.deleted');
    expect(wipeRows).toHaveLength(1);
    const modes = await server.handle.db.selectFrom('audit_log').select(['action', 'mode']).where('seller_id', '=', sellerId).execute();
    expect(modes.filter((row) => row.action === 'test_data.deleted').map((row) => row.mode)).toEqual(['test']);
    expect(modes.filter((row) => row.action === 'webhook_endpoint.created').map((row) => row.mode).sort()).toEqual(['live', 'test']);
  });
});
