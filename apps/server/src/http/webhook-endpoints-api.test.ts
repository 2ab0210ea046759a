import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditRows } from '../audit/audit-log.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

// The public webhook-endpoint and event operations over real HTTP on the server: core's rules over the SQL store.
// The rules themselves are core's tests (packages/core/src/webhooks); these show the server hosts them, with its
// outbox as the events, its sealed secrets and its audit log.

describe.each(DIALECTS)('webhook endpoints and events over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let other: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
    other = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('registers an endpoint, lists the events of its changes, reads one, and audits each change for the key', async () => {
    const created = await server.call('POST', '/api/webhook_endpoints', { key: seller.key, body: { url: 'https://crm.example.com/hooks' } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ url: 'https://crm.example.com/hooks', events: ['customer.created', 'customer.updated', 'customer.deleted'] });
    expect(created.json.secret).toMatch(/^whsec_/);
    expect(created.headers.get('location')).toBe(`/api/webhook_endpoints/${created.json.id}`);
    const endpointPath = `/api/webhook_endpoints/${created.json.id}`;
    expect((await server.call('GET', endpointPath, { key: seller.key })).json.secret).toBeUndefined();
    expect((await server.call('GET', endpointPath, { key: other.key })).status).toBe(404);

    const customer = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() });
    const events = await server.call('GET', `/api/events?undelivered_to=${created.json.id}`, { key: seller.key });
    expect(events.status).toBe(200);
    expect(events.json.data).toHaveLength(1);
    const [event] = events.json.data;
    expect(event).toMatchObject({ type: 'customer.created', api_version: '2026-11-26', data: { customer: { id: customer.json.id }, sequence: 1 } });
    expect((await server.call('GET', `/api/events/${event.id}`, { key: seller.key })).json).toEqual(event);
    expect((await server.call('GET', `/api/events/${event.id}`, { key: other.key })).status).toBe(404);

    const rotated = await server.call('POST', `${endpointPath}/rotate_secret`, { key: seller.key });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(created.json.secret);
    const replay = await server.call('POST', `${endpointPath}/replay`, { key: seller.key, body: { since: '2026-01-01T00:00:00Z', only_undelivered: true } });
    expect(replay.json).toEqual({ queued: 0, has_more: false, next_cursor: null });
    expect((await server.call('PATCH', endpointPath, { key: seller.key, body: { description: 'CRM' } })).json.description).toBe('CRM');
    expect((await server.call('DELETE', endpointPath, { key: seller.key })).status).toBe(204);

    const audit = await listAuditRows(server.handle, { sellerId: seller.sellerId, limit: 10 });
    expect(audit.map((row) => [row.action, row.actor_type, row.target_id]).reverse()).toEqual([
      ['webhook_endpoint.created', 'api_key', created.json.id],
      ['webhook_endpoint.secret_rotated', 'api_key', created.json.id],
      ['webhook_endpoint.updated', 'api_key', created.json.id],
      ['webhook_endpoint.deleted', 'api_key', created.json.id],
    ]);
    expect(audit[0]!.actor_label).toMatch(/^sk_live_/);
  });

  it('refuses private URLs unless the server allows them, naming url, and writes nothing', async () => {
    const refused = await server.call('POST', '/api/webhook_endpoints', { key: seller.key, body: { url: 'http://127.0.0.1:9/hooks' } });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/^url must point at a public address/);
    expect((await server.call('GET', '/api/webhook_endpoints', { key: seller.key })).json.data).toEqual([]);
  });
});
