import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleCustomer } from '@customers-api/core/testing';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('customer operations over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates with defaults, 201, Location and X-Request-Id', async () => {
    const body = newCustomer();
    const res = await server.call('POST', '/api/customers', { key: seller.key, body });
    expect(res.status).toBe(201);
    // Every default applied: the customer core's service builds from the three required fields.
    expect(res.json).toEqual(
      sampleCustomer(seller.sellerId, {
        id: expect.stringMatching(UUID),
        email: body.email as string,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: res.json.created_at,
      }),
    );
    expect(res.headers.get('location')).toBe(`/api/customers/${res.json.id}`);
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('creates with every accepted field and returns them as sent', async () => {
    const body = newCustomer({
      first_name: 'Zoë',
      company_name: 'Mustermann GmbH',
      legal_entity: 'GmbH',
      language: 'en',
      status: 'suspended',
      address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
      postal_redirect_address: { street: 'Postfach 12 34', city: 'Hamburg', postal_code: '20095', country: 'DE' },
    });
    const res = await server.call('POST', '/api/customers', { key: seller.key, body });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject(body);
    const got = await server.call('GET', `/api/customers/${res.json.id}`, { key: seller.key });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
  });

  it('keeps an explicit null language (no default applies)', async () => {
    const res = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ language: null }) });
    expect(res.status).toBe(201);
    expect(res.json.language).toBeNull();
  });

  it('accepts the key as Authorization: Bearer as well', async () => {
    const res = await server.call('POST', '/api/customers', {
      body: newCustomer(),
      headers: { authorization: `Bearer ${seller.key}` },
    });
    expect(res.status).toBe(201);
  });

  it('echoes an acceptable caller X-Request-Id, on errors too', async () => {
    const ok = await server.call('GET', '/healthz', { headers: { 'x-request-id': 'req_test:1.2-3' } });
    expect(ok.headers.get('x-request-id')).toBe('req_test:1.2-3');
    const failed = await server.call('GET', '/api/customers/x', { headers: { 'x-request-id': 'mine' } });
    expect(failed.status).toBe(401);
    expect(failed.headers.get('x-request-id')).toBe('mine');
    const replaced = await server.call('GET', '/healthz', { headers: { 'x-request-id': 'has spaces' } });
    expect(replaced.headers.get('x-request-id')).not.toBe('has spaces');
  });

  it('updates only the given fields, clears with null, refreshes updated_at only', async () => {
    const created = (
      await server.call('POST', '/api/customers', {
        key: seller.key,
        body: newCustomer({ company_name: 'ACME', address_data: { city: 'Berlin', street: 'A 1' } }),
      })
    ).json;
    const res = await server.call('PATCH', `/api/customers/${created.id}`, {
      key: seller.key,
      body: { status: 'inactive', company_name: null, address_data: { city: 'Köln' } },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...created,
      status: 'inactive',
      company_name: null,
      address_data: { city: 'Köln' },
      updated_at: expect.stringMatching(ISO_UTC),
    });
    expect(res.json.updated_at > created.updated_at).toBe(true);
    expect(res.json.created_at).toBe(created.created_at);
    const got = await server.call('GET', `/api/customers/${created.id}`, { key: seller.key });
    expect(got.json).toEqual(res.json);
  });

  it('allows changing the email to its own in another letter case', async () => {
    const created = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ email: 'own@example.com' }) })).json;
    const res = await server.call('PATCH', `/api/customers/${created.id}`, { key: seller.key, body: { email: 'OWN@example.com' } });
    expect(res.status).toBe(200);
    expect(res.json.email).toBe('OWN@example.com');
  });

  it('deletes permanently: 204 with an empty body, then 404', async () => {
    const created = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const res = await server.call('DELETE', `/api/customers/${created.id}`, { key: seller.key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    for (const method of ['GET', 'DELETE']) {
      const again = await server.call(method, `/api/customers/${created.id}`, { key: seller.key });
      expect(again.status).toBe(404);
      expect(again.json).toEqual(errorBody('Not Found', 'Customer not found'));
    }
    const patch = await server.call('PATCH', `/api/customers/${created.id}`, { key: seller.key, body: { status: 'active' } });
    expect(patch.json).toEqual(errorBody('Not Found', 'Customer not found'));
  });

  it('finds a customer by its id in upper case too', async () => {
    const created = (await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })).json;
    const res = await server.call('GET', `/api/customers/${created.id.toUpperCase()}`, { key: seller.key });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(created.id);
  });

  it('replays an idempotent create (same key, same body) without a second customer', async () => {
    const body = newCustomer();
    const headers = { 'idempotency-key': `idem-${Math.random()}` };
    const first = await server.call('POST', '/api/customers', { key: seller.key, body, headers });
    const second = await server.call('POST', '/api/customers', { key: seller.key, body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    const reused = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: { ...body, first_name: 'Other' },
      headers,
    });
    expect(reused.status).toBe(400);
    expect(reused.json).toEqual(
      errorBody('Bad Request', 'Idempotency-Key was already used with a different request body; use a new key for a new request'),
    );
  });

  it('rejects an Idempotency-Key outside 1-255 visible ASCII characters', async () => {
    const res = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer(),
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('Bad Request');
    expect(res.json.message).toMatch(/Idempotency-Key/);
  });

  it('serves /healthz, /openapi.yaml, /openapi.json and the /docs reference', async () => {
    const health = await server.call('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: 'ok', database: dialect });
    const yaml = await server.call('GET', '/openapi.yaml');
    expect(yaml.text).toMatch(/^openapi: 3\.1\.0/);
    const json = await server.call('GET', '/openapi.json');
    expect(json.json.info.title).toBe('Customer Management API');
    const docs = await server.call('GET', '/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger-ui/i);
    // Offline: every asset the page loads is served by this server.
    for (const asset of docs.text.matchAll(/(?:href|src)="([^"]+)"/g)) {
      const path = asset[1]!;
      expect(path.startsWith('http')).toBe(false);
      const url = path.startsWith('/') ? path : `/docs/${path.replace(/^\.\//, '')}`;
      expect((await server.call('GET', url)).status, url).toBe(200);
    }
  });
});
