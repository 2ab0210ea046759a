// The mock over real HTTP, in process: body handling, CORS, Prefer, forced responses, the control API.
import { request } from 'node:http';
import { BODY_LIMIT_BYTES, MESSAGES, OPERATION_IDS } from '@customers-api/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { ada, key, raw } from './support.js';

let mock: MockServer;
let url: string;
const headers = { 'X-API-Key': key('a'), 'Content-Type': 'application/json' };
const create = (body: unknown = ada, extra: Record<string, string> = {}) =>
  fetch(`${url}/api/customers`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
const control = (path: string, body?: unknown, method = 'POST') =>
  fetch(`${url}/__mock${path}`, { method, headers: { 'Content-Type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) });

beforeAll(async () => {
  const seed = parseSeed({
    sellers: [
      { id: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 5, keys: [{ key: key('a') }, { key: key('e'), expiresAt: '2020-01-01T00:00:00Z' }], customers: [ada] },
      { keys: [{ key: key('r'), revoked: true }] },
    ],
  });
  mock = await createMockServer({ seed, corsOrigins: ['http://app.test'] });
  url = await mock.listen(0);
});
afterEach(() => control('/reset'));
afterAll(() => mock.close());

describe('the API over HTTP', () => {
  it('knows only the seeded keys: others, revoked and expired ones are 401', async () => {
    expect((await create({ ...ada, email: 'new@example.com' })).status).toBe(201);
    for (const other of [key('b'), key('r'), key('e')]) {
      const response = await create(ada, { 'X-API-Key': other });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'Unauthorized', message: MESSAGES.apiKeyInvalid });
    }
  });

  it("answers malformed JSON with core's 400, and a body past 64 KiB with 413 without reading it all", async () => {
    const bad = await fetch(`${url}/api/customers`, { method: 'POST', headers, body: '{"first_name":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Bad Request', message: 'body must be valid JSON (UTF-8)' });
    const big = await raw(`${url}/api/customers`, 'POST', headers, Buffer.alloc(BODY_LIMIT_BYTES * 8, 0x20));
    expect(big.status).toBe(413);
    expect(big.headers.connection).toBe('close');
    expect(JSON.parse(big.text)).toEqual({ error: 'Payload Too Large', message: 'Request body must be at most 65536 bytes' });
  });

  it('takes a body of exactly 64 KiB to the rules (400 on the long name, not 413)', async () => {
    const base = JSON.stringify({ ...ada, first_name: '' });
    const body = JSON.stringify({ ...ada, first_name: 'x'.repeat(BODY_LIMIT_BYTES - base.length) });
    expect(Buffer.byteLength(body)).toBe(BODY_LIMIT_BYTES);
    const response = await raw(`${url}/api/customers`, 'POST', headers, body);
    expect(JSON.parse(response.text)).toEqual({ error: 'Bad Request', message: 'first_name must be at most 100 characters' });
  });

  it('survives a client that leaves in the middle of its body', async () => {
    await new Promise<void>((resolve) => {
      const req = request(`${url}/api/customers`, { method: 'POST', headers: { ...headers, 'Content-Length': '1000' } });
      req.on('error', () => resolve());
      req.write('{"first_name":', () => setTimeout(() => req.destroy(), 20));
      req.on('close', () => resolve());
    });
    expect((await create({ ...ada, email: 'after@example.com' })).status).toBe(201);
  });

  it('answers other methods with 405 + Allow, a plain OPTIONS included', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'LINK', 'PUT', 'OPTIONS']) {
      const response = await raw(`${url}/api/customers`, method, headers);
      expect(response.status, method).toBe(405);
      expect(response.headers.allow, method).toBe('GET, HEAD, POST');
    }
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin and refuses another', async () => {
    const preflight = { Origin: 'http://app.test', 'Access-Control-Request-Method': 'POST' };
    const ok = await raw(`${url}/api/customers`, 'OPTIONS', preflight);
    expect(ok.status).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('http://app.test');
    const refused = await raw(`${url}/api/customers`, 'OPTIONS', { ...preflight, Origin: 'http://evil.test' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({ error: 'Forbidden', message: 'Origin http://evil.test is not allowed; the mock allows http://app.test' });
  });

  it('adds the allow and expose headers to actual responses', async () => {
    const response = await create(ada, { Origin: 'http://app.test' });
    expect(response.status).toBe(409);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id, Customers-Version, Location, Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy, Deprecation, Sunset, Link',
    );
  });
});

describe('Prefer', () => {
  it('forces an error status and answers named examples, storing nothing', async () => {
    const forced = await create({ ...ada, email: 'x@example.com' }, { Prefer: 'code=500' });
    expect(forced.status).toBe(500);
    expect(await forced.json()).toEqual({ error: 'Internal Server Error', message: MESSAGES.internal });
    const example = await create({ ...ada, email: 'y@example.com' }, { Prefer: 'example=created' });
    expect(example.status).toBe(201);
    expect((await example.json()).first_name).toBe('Ada');
    expect(mock.api.store.countCustomers('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a')).toBe(1);
  });

  it('refuses an unknown example with a 400 naming the ones there are', async () => {
    const response = await create(ada, { Prefer: 'example=nope' });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/^Prefer: example=nope is not an example of createCustomer; use one of created, /);
    const badCode = await create(ada, { Prefer: 'code=2xx' });
    expect(await badCode.json()).toEqual({ error: 'Bad Request', message: 'Prefer: code=2xx must be a 3-digit HTTP status' });
  });
});

describe('the control API', () => {
  it('queues forced responses: status and headers, times, a dropped connection', async () => {
    expect((await control('/next-responses', { operation: 'createCustomer', status: 503, headers: { 'Retry-After': '1' }, times: 2 })).status).toBe(204);
    for (let n = 0; n < 2; n++) {
      const response = await create();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect((await create()).status).toBe(409); // real again: Ada is seeded
    await control('/next-responses', { operation: 'getCustomer', networkError: true });
    await expect(fetch(`${url}/api/customers/x`, { headers })).rejects.toThrow(TypeError);
  });

  it('adds a seller, gives it keys, counts its customers and revokes its key', async () => {
    const added = await control('/sellers', { customerLimit: 1 });
    expect(added.status).toBe(201);
    const seller = await added.json();
    expect(seller).toEqual({ id: expect.any(String), customerLimit: 1, key: expect.stringMatching(/^sk_live_/) });
    expect((await create(ada, { 'X-API-Key': seller.key })).status).toBe(201);
    expect((await create({ ...ada, email: 'b@example.com' }, { 'X-API-Key': seller.key })).status).toBe(403);
    expect(await (await control(`/sellers/${seller.id}`, undefined, 'GET')).json()).toEqual({ id: seller.id, customerLimit: 1, customerCount: 1 });
    const second = await (await control(`/sellers/${seller.id}/keys`, {})).json();
    expect((await control('/keys/revoke', { key: seller.key })).status).toBe(204);
    expect((await create(ada, { 'X-API-Key': seller.key })).status).toBe(401);
    expect((await create(ada, { 'X-API-Key': second.key })).status).toBe(403); // the same seller, at its limit of 1
  });

  it('gives a seller test and restricted keys (issue 38): the key answers only within its scopes', async () => {
    const seller = await (await control('/sellers', {})).json();
    const added = await control(`/sellers/${seller.id}/keys`, { mode: 'test', scopes: ['customers:read'] });
    expect(added.status).toBe(201);
    const restricted = await added.json();
    expect(restricted).toEqual({ sellerId: seller.id, key: expect.stringMatching(/^rk_test_[A-Za-z0-9]{48}$/), mode: 'test', scopes: ['customers:read'] });
    const testKey = await (await control(`/sellers/${seller.id}/keys`, { mode: 'test' })).json();
    expect(testKey).toMatchObject({ key: expect.stringMatching(/^sk_test_/), mode: 'test', scopes: null });
    expect((await fetch(`${url}/api/customers`, { headers: { 'X-API-Key': restricted.key } })).status).toBe(200);
    const refused = await create(ada, { 'X-API-Key': restricted.key });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/lacks the customers:write scope, which createCustomer \(POST \/api\/customers\) needs/);
    expect((await create(ada, { 'X-API-Key': testKey.key })).status).toBe(201);
    const bad: Array<[unknown, string]> = [
      [{ scopes: ['customers:delete'] }, 'body.scopes: unknown scope "customers:delete"'],
      [{ mode: 'prod' }, 'body.mode: must be "live" or "test"'],
      [{ key: `sk_live_${'a'.repeat(48)}`, scopes: ['events:read'] }, 'body.scopes: are for restricted keys'],
      [{ key: `rk_live_${'a'.repeat(48)}` }, 'body.scopes: are required for a restricted key'],
      [{ key: `sk_live_${'b'.repeat(48)}`, mode: 'test' }, 'body.mode: is "test" but the key is a live key'],
    ];
    for (const [body, message] of bad) {
      const answer = await control(`/sellers/${seller.id}/keys`, body);
      expect(answer.status, message).toBe(400);
      expect((await answer.json()).message).toContain(message);
    }
  });

  it('resets to the seed: seeded customers only, forced responses dropped', async () => {
    expect((await create({ ...ada, email: 'z@example.com' })).status).toBe(201);
    await control('/next-responses', { operation: 'createCustomer', status: 500 });
    expect((await control('/reset')).status).toBe(204);
    expect(mock.api.store.countCustomers('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a')).toBe(1);
    expect((await create({ ...ada, email: 'z@example.com' })).status).toBe(201);
  });

  it('refuses bad control requests with a 400 naming the problem', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/next-responses', { operation: 'searchCustomers', status: 500 }, `body.operation: must be one of ${OPERATION_IDS.join(', ')}`],
      ['/next-responses', { operation: 'getCustomer', status: 200 }, 'body: status 200 needs the body to answer with'],
      ['/next-responses', { operation: 'getCustomer', status: '500' }, 'body.status: must be a number'],
      ['/next-responses', { operation: 'getCustomer', status: 500, headers: { 'Retry-After': 1 } }, 'body.headers: must be an object of header names to string values'],
      ['/next-responses', { operation: 'getCustomer', stauts: 500 }, 'body.stauts: is not allowed; use operation, status, body, headers, message, delayMs, networkError, times'],
      ['/next-responses', { operation: 'getCustomer', status: 500, headers: { 'Bad Name': 'x' } }, 'body.headers["Bad Name"]: is not a valid HTTP header name and value'],
      ['/next-responses', { operation: 'getCustomer', status: 500, headers: { 'X-Ok': 'line\nbreak' } }, 'body.headers["X-Ok"]: is not a valid HTTP header name and value'],
      ['/sellers', { customerLimit: 'many' }, 'body.customerLimit: must be a whole number, 0 or more'],
      ['/keys/revoke', {}, 'body.key: is required'],
      ['/keys/revoke', { key: 'sk_live_x' }, 'body.key: must be sk_live_, sk_test_, rk_live_ or rk_test_ followed by 48 letters or digits'],
    ];
    for (const [path, body, message] of cases) {
      const response = await control(path, body);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toEqual({ error: 'Bad Request', message });
    }
    const notJson = await fetch(`${url}/__mock/sellers`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(await notJson.json()).toEqual({ error: 'Bad Request', message: 'body must be valid JSON (UTF-8)' });
    expect((await control('/nothing')).status).toBe(404);
    const wrongMethod = await control('/reset', undefined, 'GET');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await control('/sellers/00000000-0000-4000-8000-000000000000', undefined, 'GET')).status).toBe(404);
  });
});
