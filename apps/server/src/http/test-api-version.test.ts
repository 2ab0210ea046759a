import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestServer } from '../test/test-server.js';

// Test mode's version pin (issue 38, sellers.test_api_version from migration 020): a test key's request without
// Customers-Version is answered in the seller's test pin when it has one, else in its live pin; live keys never
// see the test pin. Read in the same statement as the test clock.
describe.each(DIALECTS)("test mode's version pin on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { versioning: fixtureVersioning() });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a test key in the test pin and a live key in the live pin', async () => {
    const seller = await server.seller();
    const test = await server.key(seller.sellerId, { mode: 'test' });
    const version = async (key: string) => (await server.call('GET', '/api/customers', { key })).headers.get('customers-version');
    const latest = await version(seller.key);
    expect(latest).not.toBe(FIXTURE_OLD_VERSION);
    expect(await version(test.key)).toBe(latest);
    await server.handle.db.updateTable('sellers').set({ test_api_version: FIXTURE_OLD_VERSION }).where('id', '=', seller.sellerId).execute();
    expect(await version(test.key)).toBe(FIXTURE_OLD_VERSION);
    expect(await version(seller.key)).toBe(latest);
  });
});
