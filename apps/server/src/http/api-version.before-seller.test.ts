import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { setSellerApiVersion } from '../db/sellers.js';
import { FAILED_AUTH_LIMIT } from '../rate-limit/request-limits.js';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestResponse, type TestServer } from '../test/test-server.js';

// Answers given before the seller is known carry the version the request named when it is valid, else the latest
// (never a seller's pin): with the fixture version, the requested one is told apart from the latest.
describe.each(DIALECTS)('the version of answers before the seller is known on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning(), rateLimit: { perSecond: 5 } });
  });
  afterAll(async () => {
    await server.close();
  });

  const old = { 'Customers-Version': FIXTURE_OLD_VERSION };
  const malformed = { 'Customers-Version': '2020-13-01' };
  const version = (response: TestResponse) => [response.status, response.headers.get('customers-version')];

  it('401, 404 for an unknown path, and the header’s 400: the requested version when valid, else the latest', async () => {
    // A seller pinned to the older version: its pin cannot apply before its key is known.
    const pinned = await server.seller();
    await setSellerApiVersion(server.handle, pinned.sellerId, FIXTURE_OLD_VERSION);
    const bad = 'sk_live_' + 'z'.repeat(48);
    expect(version(await server.call('GET', '/api/customers', { headers: old }))).toEqual([401, FIXTURE_OLD_VERSION]);
    expect(version(await server.call('GET', '/api/customers', { key: bad, headers: old }))).toEqual([401, FIXTURE_OLD_VERSION]);
    expect(version(await server.call('GET', '/api/customers', { key: bad }))).toEqual([401, LATEST_API_VERSION]);
    expect(version(await server.call('GET', '/api/unknown', { headers: old }))).toEqual([404, FIXTURE_OLD_VERSION]);
    expect(version(await server.call('GET', '/api/unknown', { key: pinned.key }))).toEqual([404, LATEST_API_VERSION]);
    // The route is checked first: an unknown path with a bad header is a 404, in the latest.
    expect(version(await server.call('GET', '/api/unknown', { headers: malformed }))).toEqual([404, LATEST_API_VERSION]);
    expect(version(await server.call('GET', '/api/customers', { key: pinned.key, headers: malformed }))).toEqual([400, LATEST_API_VERSION]);
    // Once the key is known, its pin applies to a request without the header.
    expect(version(await server.call('GET', '/api/customers', { key: pinned.key }))).toEqual([200, FIXTURE_OLD_VERSION]);
  });

  it('the 429 of failed authentications: the requested version when valid, else the latest', async () => {
    const bad = 'sk_live_' + 'q'.repeat(48);
    // The address's budget of failed authentications spent (the test above spent some of it already).
    for (let i = 0; i < FAILED_AUTH_LIMIT; i += 1) await server.call('GET', '/api/customers', { key: bad });
    expect(version(await server.call('GET', '/api/customers', { key: bad, headers: old }))).toEqual([429, FIXTURE_OLD_VERSION]);
    expect(version(await server.call('GET', '/api/customers', { key: bad }))).toEqual([429, LATEST_API_VERSION]);
    // The header is checked before the key: a malformed one is still the 400, not a 429.
    expect(version(await server.call('GET', '/api/customers', { key: bad, headers: malformed }))).toEqual([400, LATEST_API_VERSION]);
  });
});
