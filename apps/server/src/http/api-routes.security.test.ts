import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

describe.each(DIALECTS)('tenancy on %s', (dialect) => {
  let server: TestServer;
  let owner: TestSeller;
  let stranger: TestSeller;
  let customer: Record<string, any>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    owner = await server.seller();
    stranger = await server.seller();
    customer = (await server.call('POST', '/api/customers', { key: owner.key, body: newCustomer({ email: 'shared@example.com' }) })).json;
  });
  afterAll(async () => {
    await server.close();
  });

  it('another seller gets the same 404 as for a missing customer on GET, PATCH and DELETE', async () => {
    const missing = '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
    for (const [method, body] of [['GET'], ['PATCH', { status: 'suspended' }], ['DELETE']] as const) {
      const theirs = await server.call(method, `/api/customers/${customer.id}`, { key: stranger.key, body });
      const none = await server.call(method, `/api/customers/${missing}`, { key: stranger.key, body });
      expect(theirs.status, method).toBe(404);
      expect(theirs.json).toEqual(errorBody('Not Found', 'Customer not found'));
      expect(theirs.json).toEqual(none.json);
    }
    const still = await server.call('GET', `/api/customers/${customer.id}`, { key: owner.key });
    expect(still.json).toEqual(customer);
  });

  it('emails are unique per seller only, and customers belong to the caller', async () => {
    const res = await server.call('POST', '/api/customers', { key: stranger.key, body: newCustomer({ email: 'SHARED@example.com' }) });
    expect(res.status).toBe(201);
    expect(res.json.seller_id).toBe(stranger.sellerId);
  });

  it('plan limits count the caller’s customers only', async () => {
    const tiny = await server.seller({ customerLimit: 1 });
    expect((await server.call('POST', '/api/customers', { key: tiny.key, body: newCustomer() })).status).toBe(201);
    expect((await server.call('POST', '/api/customers', { key: tiny.key, body: newCustomer() })).status).toBe(403);
    expect((await server.call('POST', '/api/customers', { key: owner.key, body: newCustomer() })).status).toBe(201);
  });

  it('idempotency keys are scoped to the seller', async () => {
    const headers = { 'idempotency-key': 'same-key-for-both' };
    const a = await server.call('POST', '/api/customers', { key: owner.key, body: newCustomer(), headers });
    const b = await server.call('POST', '/api/customers', { key: stranger.key, body: newCustomer(), headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.json.id).not.toBe(a.json.id);
    expect(b.json.seller_id).toBe(stranger.sellerId);
  });
});
