import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '../testing/fixture-version.js';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { createApiHandler } from './api-handler.js';

// What MSW and the HTTP mock answer before the seller is known (both host this handler): the requested version
// when valid, else the latest, never the seller's pin. The fixture version tells the requested one from the latest.
describe('createApiHandler: the version of answers before the seller is known', () => {
  it('401 and an unknown path carry the requested version; a malformed header the latest; the pin only after the key', async () => {
    const key = generateApiKey();
    const keys = new MemoryKeyRegistry();
    await keys.add(key, { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10, apiVersion: FIXTURE_OLD_VERSION });
    const handle = createApiHandler({
      service: createCustomerService({ store: new MemoryCustomerStore() }),
      lookupKey: keys.lookup,
      versioning: fixtureVersioning(),
    });
    const send = async (path: string, headers: Record<string, string>) => {
      const h = new Headers(headers);
      const response = await handle({ method: 'GET', path, header: (name) => h.get(name), body: null });
      return [response.status, response.headers['Customers-Version']];
    };
    const old = { 'Customers-Version': FIXTURE_OLD_VERSION };
    const malformed = { 'Customers-Version': '2020-13-01' };
    expect(await send('/api/customers', old)).toEqual([401, FIXTURE_OLD_VERSION]);
    expect(await send('/api/customers', { 'X-API-Key': generateApiKey(), ...old })).toEqual([401, FIXTURE_OLD_VERSION]);
    expect(await send('/api/customers', {})).toEqual([401, LATEST_API_VERSION]);
    expect(await send('/api/unknown', old)).toEqual([404, FIXTURE_OLD_VERSION]);
    expect(await send('/api/unknown', { 'X-API-Key': key })).toEqual([404, LATEST_API_VERSION]);
    expect(await send('/api/unknown', malformed)).toEqual([404, LATEST_API_VERSION]);
    expect(await send('/api/customers', { 'X-API-Key': key, ...malformed })).toEqual([400, LATEST_API_VERSION]);
    expect(await send('/api/customers', { 'X-API-Key': key })).toEqual([200, FIXTURE_OLD_VERSION]);
  });
});
