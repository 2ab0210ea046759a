import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn } from './dashboard-test-helpers.js';

describe.each(DIALECTS)('the Events and Customers APIs on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });
  const as = (cookie: string) => (method: string, path: string, body?: unknown) =>
    server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, body });

  it('finds events by an 8-character id prefix and by customer, each with its state at every endpoint', async () => {
    const seller = await server.seller();
    const call = as(await signIn(server, seller.sellerId));
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://events.example.com/hooks' });
    const ada = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const bob = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ first_name: 'Bob' }) })).json;
    await server.call('PATCH', `/api/customers/${ada.id}`, { key: seller.key, body: { status: 'suspended' } });

    const all = await call('GET', '/events');
    expect(all.status, all.text).toBe(200);
    expect(all.json.events.map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created', 'customer.created']);
    const [update] = all.json.events;
    expect(update.deliveries).toEqual([
      { endpoint_id: endpoint.id, endpoint_url: 'https://events.example.com/hooks', status: 'pending', attempts: 0, last_status_code: null, next_attempt_at: expect.any(String), delivered_at: null },
    ]);
    for (const search of [update.id.slice(0, 12), update.id.slice(4, 12), update.id.toUpperCase().replace('EVT_', 'evt_')]) {
      const found = await call('GET', `/events?event_id=${search}`);
      expect(found.status, search).toBe(200);
      expect(found.json.events.map((e: { id: string }) => e.id), search).toContain(update.id);
      expect(found.json.events.every((e: { id: string }) => e.id.startsWith(`evt_${search.replace(/^evt_/i, '').toLowerCase()}`))).toBe(true);
    }
    const byCustomer = await call('GET', `/events?customer_id=${bob.id}`);
    expect(byCustomer.json.events.map((e: { customer_id: string; type: string }) => [e.customer_id, e.type])).toEqual([[bob.id, 'customer.created']]);
    const paged = await call('GET', '/events?limit=2');
    expect(paged.json.events).toHaveLength(2);
    const rest = await call('GET', `/events?limit=2&cursor=${paged.json.next_cursor}`);
    expect(rest.json.events.map((e: { customer_id: string }) => e.customer_id)).toEqual([ada.id]);
    expect(rest.json.next_cursor).toBeNull();
    for (const query of ['event_id=evt_12', 'event_id=zzzzzzzz', 'customer_id=nope', 'cursor=x', 'limit=0', 'q=ada']) {
      const refused = await call('GET', `/events?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.json.message).toContain(query.split('=')[0]);
    }
  });

  it('shows an event during a disabled time as skipped, and resends it once the endpoint is enabled', async () => {
    const seller = await server.seller();
    const call = as(await signIn(server, seller.sellerId));
    const { json: endpoint } = await call('POST', '/webhooks', { url: 'https://disabled.example.com/hooks' });
    expect((await call('POST', `/webhooks/${endpoint.id}/disable`)).status).toBe(200);
    const customer = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const [event] = (await call('GET', `/events?customer_id=${customer.id}`)).json.events;
    expect(event.deliveries.map((d: { status: string }) => d.status)).toEqual(['skipped']);
    // Still disabled: nothing to send it to.
    expect((await call('POST', `/events/${event.id}/resend`, { endpoint_id: endpoint.id })).status).toBe(404);
    expect((await call('POST', `/webhooks/${endpoint.id}/enable`)).status).toBe(200);
    const resent = await call('POST', `/events/${event.id}/resend`, { endpoint_id: endpoint.id });
    expect(resent.status, resent.text).toBe(204);
    const [after] = (await call('GET', `/events?customer_id=${customer.id}`)).json.events;
    expect(after.deliveries.map((d: { status: string }) => d.status)).toEqual(['pending']);
    const activity = await call('GET', '/activity');
    expect(activity.json.entries[0]).toMatchObject({ action: 'webhook_delivery.resent', target_id: event.id });
    // The same delivery, again (the update path): still one delivery.
    expect((await call('POST', `/events/${event.id}/resend`, { endpoint_id: endpoint.id })).status).toBe(204);
    expect((await call('GET', `/webhooks/${endpoint.id}/deliveries`)).json.deliveries).toHaveLength(1);
    expect((await call('POST', `/events/${event.id}/resend`, {})).status).toBe(400);
    expect((await call('POST', `/events/${event.id}/resend`, { endpoint_id: endpoint.id, extra: 1 })).status).toBe(400);
  });

  it('keeps test mode apart: events and customers of test keys only with mode=test, live ones only without', async () => {
    const seller = await server.seller();
    const call = as(await signIn(server, seller.sellerId));
    const { key: testKey } = await server.key(seller.sellerId, { mode: 'test' });
    expect((await call('POST', '/webhooks', { url: 'https://live.example.com/hooks' })).status).toBe(201);
    const testEndpoint = await server.call('POST', '/api/webhook_endpoints', { key: testKey, body: { url: 'https://test.example.com/hooks' } });
    expect(testEndpoint.status, testEndpoint.text).toBe(201);
    const live = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ email: 'same@example.com' }) })).json;
    const test = (await server.call('POST', '/api/customers', { key: testKey, body: newCustomer({ email: 'same@example.com' }) })).json;

    const ids = (list: { json: { data?: { id: string }[]; events?: { customer_id: string }[] } }) =>
      (list.json.data ?? []).map((c) => c.id).concat((list.json.events ?? []).map((e) => e.customer_id));
    expect(ids(await call('GET', '/customers'))).toEqual([live.id]);
    expect(ids(await call('GET', '/customers?mode=live&email=same@example.com'))).toEqual([live.id]);
    expect(ids(await call('GET', '/customers?mode=test&email=same@example.com'))).toEqual([test.id]);
    expect(ids(await call('GET', '/events'))).toEqual([live.id]);
    expect(ids(await call('GET', '/events?mode=test'))).toEqual([test.id]);
    // Another mode's customer is a missing one, for reads and changes alike.
    expect((await call('GET', `/customers/${test.id}`)).status).toBe(404);
    expect((await call('PATCH', `/customers/${test.id}`, { first_name: 'X' })).status).toBe(404);
    expect((await call('GET', `/customers/${test.id}?mode=test`)).status).toBe(200);
    expect((await call('PATCH', `/customers/${live.id}?mode=test`, { first_name: 'X' })).status).toBe(404);
    expect((await call('DELETE', `/customers/${test.id}?mode=test`)).status).toBe(204);
    for (const path of ['/customers?mode=sandbox', '/events?mode=TEST', `/customers/${live.id}?mode=x`]) {
      const refused = await call('GET', path);
      expect(refused.status, path).toBe(400);
      expect(refused.json.message, path).toContain('mode');
    }
  });

  it('lists, finds by email, edits and deletes customers with the public API rules, audited', async () => {
    const seller = await server.seller();
    const call = as(await signIn(server, seller.sellerId));
    // Changes are recorded as events only while some endpoint is subscribed.
    expect((await call('POST', '/webhooks', { url: 'https://customers.example.com/hooks' })).status).toBe(201);
    const ada = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ email: `Ada.${Date.now()}@Example.com` }) })).json;
    const bob = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const list = await call('GET', '/customers');
    expect(list.status).toBe(200);
    expect(list.json.data.map((c: { id: string }) => c.id)).toEqual([bob.id, ada.id]);
    const found = await call('GET', `/customers?email=${encodeURIComponent(ada.email.toLowerCase())}`);
    expect(found.json.data.map((c: { id: string }) => c.id)).toEqual([ada.id]);
    expect((await call('GET', '/customers?status=suspended')).json.data).toEqual([]);
    expect((await call('GET', '/customers?colour=blue')).status).toBe(400);
    expect((await call('GET', `/customers/${ada.id}`)).json).toEqual(ada);

    const edited = await call('PATCH', `/customers/${ada.id}`, { status: 'suspended' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.status).toBe('suspended');
    const invalid = await call('PATCH', `/customers/${ada.id}`, { status: 'asleep' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.message).toContain('status');
    const taken = await call('PATCH', `/customers/${bob.id}`, { email: ada.email });
    expect(taken.status).toBe(409);
    expect((await call('PATCH', `/customers/${ada.id}`, {})).status).toBe(400);
    expect((await call('DELETE', `/customers/${bob.id}`)).status).toBe(204);
    expect((await server.call('GET', `/api/customers/${bob.id}`, { key: seller.key })).status).toBe(404);
    const actions = (await call('GET', '/activity')).json.entries.map((e: { action: string; target_id: string }) => [e.action, e.target_id]);
    expect(actions.slice(0, 2)).toEqual([['customer.deleted', bob.id], ['customer.updated', ada.id]]);
    // The same change events as the API's.
    const types = (await call('GET', `/events?customer_id=${bob.id}`)).json.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(['customer.deleted', 'customer.created']);
  });

  it("treats another seller's events, endpoints and customers as missing", async () => {
    const mine = await server.seller();
    const theirs = await server.seller();
    const me = as(await signIn(server, mine.sellerId));
    const them = as(await signIn(server, theirs.sellerId));
    const { json: theirEndpoint } = await them('POST', '/webhooks', { url: 'https://theirs.example.com/hooks' });
    const { json: myEndpoint } = await me('POST', '/webhooks', { url: 'https://mine.example.com/hooks' });
    const theirCustomer = (await server.call('POST', '/api/customers', { key: theirs.key, body: newCustomer() })).json;
    const [theirEvent] = (await them('GET', '/events')).json.events;

    expect((await me('GET', '/events')).json.events).toEqual([]);
    expect((await me('GET', `/events?event_id=${theirEvent.id}`)).json.events).toEqual([]);
    expect((await me('GET', `/events?customer_id=${theirCustomer.id}`)).json.events).toEqual([]);
    expect((await me('POST', `/events/${theirEvent.id}/resend`, { endpoint_id: theirEndpoint.id })).status).toBe(404);
    expect((await me('POST', `/events/${theirEvent.id}/resend`, { endpoint_id: myEndpoint.id })).status).toBe(404);
    expect((await me('GET', '/customers')).json.data).toEqual([]);
    expect((await me('GET', `/customers?email=${encodeURIComponent(theirCustomer.email)}`)).json.data).toEqual([]);
    for (const [method, body] of [['GET'], ['PATCH', { status: 'inactive' }], ['DELETE']] as const) {
      const refused = await me(method, `/customers/${theirCustomer.id}`, body);
      expect(refused.status, method).toBe(404);
      expect(refused.json).toEqual({ error: 'Not Found', message: expect.any(String) });
    }
    expect((await server.call('GET', `/api/customers/${theirCustomer.id}`, { key: theirs.key })).json.status).toBe('active');
  });

  it('needs a session and the same origin', async () => {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    for (const path of ['/dashboard/api/events', '/dashboard/api/customers']) {
      expect((await server.call('GET', path)).status).toBe(401);
      expect((await server.call('GET', path, { headers: { 'x-api-key': seller.key } })).status).toBe(401);
    }
    const customer = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const crossSite = await server.call('DELETE', `/dashboard/api/customers/${customer.id}`, { headers: { cookie, origin: 'https://evil.example' } });
    expect(crossSite.status).toBe(403);
    expect((await server.call('GET', `/api/customers/${customer.id}`, { key: seller.key })).status).toBe(200);
  });
});
