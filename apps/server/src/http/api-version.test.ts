import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, LATEST_API_VERSION } from '@customers-api/core';
import { rawExchange } from '../test/raw-http.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

const refusal = `Customers-Version header must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}`;

describe.each(DIALECTS)('Customers-Version over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers without the header in the latest version, and in a supported version asked for', async () => {
    const plain = await server.call('GET', '/api/customers', { key: seller.key });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const asked = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer(),
      headers: { 'Customers-Version': '2026-11-26' },
    });
    expect(asked.status).toBe(201);
    expect(asked.headers.get('customers-version')).toBe('2026-11-26');
  });

  it.each(['2020-13-01', '2020-01-01'])('refuses %s with 400 naming the header, before the API key, storing nothing', async (sent) => {
    for (const key of [seller.key, undefined]) {
      const res = await server.call('POST', '/api/customers', {
        ...(key ? { key } : {}),
        body: newCustomer({ email: 'versioned@example.com' }),
        headers: { 'Customers-Version': sent },
      });
      expect(res.status).toBe(400);
      expect(res.json).toEqual(errorBody('Bad Request', refusal));
      expect(res.headers.get('customers-version')).toBe(LATEST_API_VERSION);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    const list = await server.call('GET', '/api/customers?email=versioned@example.com', { key: seller.key });
    expect(list.json.data).toEqual([]);
  });

  it('carries the version on 401, unknown path 404, 405, 413 and 415 answers', async () => {
    const version = { 'Customers-Version': LATEST_API_VERSION };
    const answers: [number, Awaited<ReturnType<TestServer['call']>>][] = [
      [401, await server.call('GET', '/api/customers', { headers: version })],
      [404, await server.call('GET', '/api/unknown', { headers: version })],
      [404, await server.call('GET', '/api/customers/00000000-0000-4000-8000-000000000000', { key: seller.key, headers: version })],
      [405, await server.call('PUT', '/api/customers', { key: seller.key, headers: version })],
      [413, await server.call('POST', '/api/customers', { key: seller.key, body: 'x'.repeat(70_000), headers: version })],
      [415, await server.call('POST', '/api/customers', { key: seller.key, body: '{}', headers: { ...version, 'content-type': 'text/plain' } })],
    ];
    for (const [status, res] of answers) {
      expect(res.status).toBe(status);
      expect(res.headers.get('customers-version'), `${status}`).toBe(LATEST_API_VERSION);
    }
  });

  it('carries it on answers outside the routes: a path Fastify cannot decode, a request the parser refuses', async () => {
    const badUrl = await server.call('GET', '/api/customers/%E0%A4%A', { key: seller.key, headers: { 'Customers-Version': LATEST_API_VERSION } });
    expect(badUrl.status).toBe(404);
    expect(badUrl.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const garbage = await rawExchange(server.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.headers['customers-version']).toBe(LATEST_API_VERSION);
  });
});
