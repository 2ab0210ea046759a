import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { findSeller, setSellerApiVersion } from '../db/sellers.js';
import { DIALECTS } from '../test/test-database.js';
import { errorBody, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';
import { sameOrigin, signIn, fieldErrorBody } from './dashboard-test-helpers.js';

// The fixture version (test-only) is older than the latest, so a seller pinned to it has a newer one to move to.
describe.each(DIALECTS)('dashboard API version of the account on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let other: TestSeller;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = sameOrigin(server)) =>
    server.call(method, `/dashboard/api${path}`, { headers: { cookie, ...headers }, body });

  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning() });
    seller = await server.seller();
    other = await server.seller();
    await setSellerApiVersion(server.handle, seller.sellerId, FIXTURE_OLD_VERSION);
    await setSellerApiVersion(server.handle, other.sellerId, FIXTURE_OLD_VERSION);
    cookie = await signIn(server, seller.sellerId);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows the pinned version and the newer ones; moves forward, audited, and never back', async () => {
    expect((await call('GET', '/account')).json).toMatchObject({ api_version: FIXTURE_OLD_VERSION, api_versions_available: [LATEST_API_VERSION] });
    const moved = await call('PATCH', '/account/api-version', { api_version: LATEST_API_VERSION });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({ api_version: LATEST_API_VERSION, api_versions_available: [] });
    expect((await findSeller(server.handle, seller.sellerId))?.api_version).toBe(LATEST_API_VERSION);
    // The API follows at once: no header, the new pin.
    const api = await server.call('GET', '/api/customers', { key: seller.key });
    expect(api.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const audit = await server.handle.db.selectFrom('audit_log').selectAll().where('seller_id', '=', seller.sellerId).where('action', '=', 'seller.updated').execute();
    expect(audit).toHaveLength(1);

    const back = await call('PATCH', '/account/api-version', { api_version: FIXTURE_OLD_VERSION });
    expect(back.status).toBe(400);
    expect(back.json).toEqual(fieldErrorBody('Bad Request', `api_version cannot change: ${LATEST_API_VERSION} is the latest version`));
    expect((await findSeller(server.handle, seller.sellerId))?.api_version).toBe(LATEST_API_VERSION);
    // Another seller's pin is untouched (the session's seller only).
    expect((await findSeller(server.handle, other.sellerId))?.api_version).toBe(FIXTURE_OLD_VERSION);
  });

  it('refuses bad bodies with a 400 naming the property, changing nothing', async () => {
    const otherCookie = await signIn(server, other.sellerId);
    const put = (body: unknown) =>
      server.call('PATCH', '/dashboard/api/account/api-version', { headers: { cookie: otherCookie, ...sameOrigin(server) }, body });
    const open = `api_version must be a newer version: one of ${LATEST_API_VERSION}`;
    for (const [body, message] of [
      [{}, 'api_version is required'],
      [{ api_version: 7 }, open],
      [{ api_version: '2020-01-01' }, open],
      [{ api_version: FIXTURE_OLD_VERSION }, open],
      [{ api_version: LATEST_API_VERSION, extra: 1 }, 'extra is not an allowed property'],
    ] as const) {
      const refused = await put(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json).toEqual(fieldErrorBody('Bad Request', message));
    }
    expect((await findSeller(server.handle, other.sellerId))?.api_version).toBe(FIXTURE_OLD_VERSION);
  });

  it('refuses a cross-origin change and one without a session', async () => {
    const crossOrigin = await call('PATCH', '/account/api-version', { api_version: LATEST_API_VERSION }, { origin: 'https://evil.example' });
    expect(crossOrigin.status).toBe(403);
    const signedOut = await server.call('PATCH', '/dashboard/api/account/api-version', { headers: sameOrigin(server), body: { api_version: LATEST_API_VERSION } });
    expect(signedOut.status).toBe(401);
    expect((await findSeller(server.handle, other.sellerId))?.api_version).toBe(FIXTURE_OLD_VERSION);
  });
});
