import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CHANGELOG_URL, LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { findSeller, setSellerApiVersion } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

// The fixture version (test-only): it called `company_name` `company`; the server applies core's chain.
describe.each(DIALECTS)('version changes over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning() });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  const old = { 'Customers-Version': FIXTURE_OLD_VERSION };

  it('lets an old caller send and read `company` while the database and new callers have `company_name`', async () => {
    const created = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer({ company: 'Engines Ltd' }),
      headers: old,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    const body = created.json as Record<string, unknown>;
    expect(body.company).toBe('Engines Ltd');
    expect(body).not.toHaveProperty('company_name');

    const row = await server.handle.db
      .selectFrom('customers')
      .select('company_name')
      .where('id', '=', String(body.id))
      .executeTakeFirst();
    expect(row?.company_name).toBe('Engines Ltd');

    const latest = await server.call('GET', `/api/customers/${String(body.id)}`, { key: seller.key });
    expect(latest.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const latestBody = latest.json as Record<string, unknown>;
    expect(latestBody.company_name).toBe('Engines Ltd');
    expect(latestBody).not.toHaveProperty('company');

    const page = await server.call('GET', '/api/customers', { key: seller.key, headers: old });
    const first = (page.json as { data: Record<string, unknown>[] }).data[0];
    expect(first).toMatchObject({ company: 'Engines Ltd' });
    expect(first).not.toHaveProperty('company_name');
  });

  it('names the field of the caller’s version in error messages', async () => {
    const oldError = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer({ company: 7 }),
      headers: old,
    });
    expect(oldError.status).toBe(400);
    expect(oldError.json).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });
    const latestError = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ company_name: 7 }) });
    expect(latestError.json).toEqual({ error: 'Bad Request', message: 'company_name must be a string or null' });
  });
});

describe.each(DIALECTS)('a deprecated version over HTTP on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning({ deprecated: '2026-11-26', sunset: '2099-01-01' }) });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers it, errors included, with Deprecation, Sunset and Link; the latest without them', async () => {
    const old = { 'Customers-Version': FIXTURE_OLD_VERSION };
    for (const response of [
      await server.call('GET', '/api/customers', { key: seller.key, headers: old }),
      await server.call('GET', '/api/customers', { headers: old }),
      await server.call('GET', '/api/nope', { headers: old }),
    ]) {
      expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 26) / 1000}`);
      expect(response.headers.get('sunset')).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
      expect(response.headers.get('link')).toBe(`<${API_CHANGELOG_URL}#${FIXTURE_OLD_VERSION}>; rel="deprecation"`);
    }
    const latest = await server.call('GET', '/api/customers', { key: seller.key });
    for (const name of ['deprecation', 'sunset', 'link']) expect(latest.headers.get(name)).toBeNull();
  });
});

describe.each(DIALECTS)('a seller pinned to an earlier version on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning() });
  });
  afterAll(async () => {
    await server.close();
  });

  it('is pinned to the latest at creation; pinned earlier, it gets that version without the header', async () => {
    const seller = await server.seller();
    expect((await findSeller(server.handle, seller.sellerId))?.api_version).toBe(LATEST_API_VERSION);
    await setSellerApiVersion(server.handle, seller.sellerId, FIXTURE_OLD_VERSION);

    const created = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ company: 'Engines Ltd' }) });
    expect(created.status).toBe(201);
    expect(created.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    expect(created.json).toMatchObject({ company: 'Engines Ltd' });
    const refused = await server.call('POST', '/api/customers', { key: seller.key, body: newCustomer({ company: 7 }) });
    expect(refused.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    expect(refused.json).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });

    const asked = await server.call('GET', `/api/customers/${String(created.json.id)}`, {
      key: seller.key,
      headers: { 'Customers-Version': LATEST_API_VERSION },
    });
    expect(asked.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    expect(asked.json).toMatchObject({ company_name: 'Engines Ltd' });
    // Before the seller is known (no key): the latest.
    expect((await server.call('GET', '/api/customers', {})).headers.get('customers-version')).toBe(LATEST_API_VERSION);
  });
});
