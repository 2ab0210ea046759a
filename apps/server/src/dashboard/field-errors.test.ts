// Field errors come back as data (ARCHITECTURE.md, the dashboard's action runner): the dashboard API's 400 or 409
// about one property names it in `field`, from core's errors; the public API's body for the same refusal stays
// exactly `{ error, message }`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn } from './dashboard-test-helpers.js';

describe.each(DIALECTS)('field errors in the dashboard API on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedIn() {
    const seller = await server.seller();
    const cookie = await signIn(server, seller.sellerId);
    const dashboard = (method: string, path: string, body?: unknown) =>
      server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...sameOrigin(server) }, ...(body === undefined ? {} : { body }) });
    return { seller, dashboard };
  }

  it("names email on a customer edit's 409 (another customer has it); the public API's 409 has no field", async () => {
    const { seller, dashboard } = await signedIn();
    const ada = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const bob = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const taken = await dashboard('PATCH', `/customers/${bob.id}`, { email: ada.email });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.json).toEqual({ error: 'Conflict', message: `A customer with email ${ada.email} already exists`, field: 'email' });
    const api = await server.call('PATCH', `/api/customers/${bob.id}`, { key: seller.key, body: { email: ada.email } });
    expect(api.status).toBe(409);
    expect(api.json).toEqual({ error: 'Conflict', message: `A customer with email ${ada.email} already exists` });
    // A value outside the spec's rules names its property too (core's validation, compiled from openapi.yaml).
    const invalid = await dashboard('PATCH', `/customers/${bob.id}`, { first_name: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.json.field).toBe('first_name');
    const unknown = await dashboard('PATCH', `/customers/${bob.id}`, { colour: 'blue' });
    expect(unknown.json.field).toBe('colour');
  });

  it("names url on an endpoint URL's 400, on Add and Edit alike; the public API's 400 has no field", async () => {
    const { seller, dashboard } = await signedIn();
    const added = await dashboard('POST', '/webhooks', { url: 'ftp://hooks.example.com/x' });
    expect(added.status, added.text).toBe(400);
    expect(added.json).toMatchObject({ error: 'Bad Request', field: 'url' });
    expect(added.json.message).toMatch(/^url /);
    const endpoint = await dashboard('POST', '/webhooks', { url: 'https://hooks.example.com/x' });
    expect(endpoint.status, endpoint.text).toBe(201);
    const edited = await dashboard('PATCH', `/webhooks/${endpoint.json.id}`, { url: 'ftp://hooks.example.com/x' });
    expect(edited.status).toBe(400);
    expect(edited.json).toEqual({ ...added.json });
    const events = await dashboard('PATCH', `/webhooks/${endpoint.json.id}`, { events: ['customer.exploded'] });
    expect(events.status).toBe(400);
    expect(events.json.field).toBe('events');
    const api = await server.call('POST', '/api/webhook_endpoints', { key: seller.key, body: { url: 'ftp://hooks.example.com/x' } });
    expect(api.status).toBe(400);
    expect(Object.keys(api.json).sort()).toEqual(['error', 'message']);
  });

  it('names the query parameter of a refused filter, and nothing on errors about no one property', async () => {
    const { dashboard } = await signedIn();
    const path = await dashboard('GET', '/request-logs?path=api');
    expect(path.status).toBe(400);
    expect(path.json.field).toBe('path');
    const customer = await dashboard('GET', '/events?customer_id=nope');
    expect(customer.json.field).toBe('customer_id');
    const missing = await dashboard('GET', '/webhooks/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'Not Found', message: 'Webhook endpoint not found' });
    const emptyEdit = await dashboard('PATCH', '/webhooks/00000000-0000-4000-8000-000000000000', {});
    expect(Object.keys(emptyEdit.json).sort()).toEqual(['error', 'message']);
  });
});
