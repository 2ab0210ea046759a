import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { createApiHandler } from '../http/api-handler.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '../testing/fixture-version.js';
import { LATEST_API_VERSION } from './api-version.js';
import { API_CHANGELOG_URL, deprecationHeaders } from './version-change.js';

describe('deprecationHeaders', () => {
  it('sends Deprecation as @epoch seconds, Sunset as an HTTP-date and Link to the changelog section', () => {
    expect(deprecationHeaders({ version: '2026-06-01', summary: '', deprecated: '2026-11-26', sunset: '2027-06-01' })).toEqual({
      Deprecation: `@${Date.UTC(2026, 10, 26) / 1000}`,
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      Link: `<${API_CHANGELOG_URL}#2026-06-01>; rel="deprecation"`,
    });
    expect(deprecationHeaders({ version: '2026-06-01', summary: '', deprecated: '2026-11-26' })).not.toHaveProperty('Sunset');
    expect(deprecationHeaders({ version: '2026-06-01', summary: '' })).toBeUndefined();
  });
});

describe('createApiHandler: a deprecated version', () => {
  it('answers it, errors included, with Deprecation, Sunset and Link; the latest without them', async () => {
    const key = generateApiKey();
    const keys = new MemoryKeyRegistry();
    await keys.add(key, { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 });
    const handle = createApiHandler({
      service: createCustomerService({ store: new MemoryCustomerStore() }),
      lookupKey: keys.lookup,
      versioning: fixtureVersioning({ deprecated: '2026-11-26', sunset: '2099-01-01' }),
      now: () => new Date('2026-12-01T00:00:00Z'),
    });
    const send = (headers: Record<string, string>) => {
      const h = new Headers(headers);
      return handle({ method: 'GET', path: '/api/customers', header: (name) => h.get(name), body: null });
    };
    const expected = {
      Deprecation: `@${Date.UTC(2026, 10, 26) / 1000}`,
      Sunset: 'Thu, 01 Jan 2099 00:00:00 GMT',
      Link: `<${API_CHANGELOG_URL}#${FIXTURE_OLD_VERSION}>; rel="deprecation"`,
    };
    const ok = await send({ 'X-API-Key': key, 'Customers-Version': FIXTURE_OLD_VERSION });
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject(expected);
    const refused = await send({ 'Customers-Version': FIXTURE_OLD_VERSION });
    expect(refused.status).toBe(401);
    expect(refused.headers).toMatchObject(expected);
    const latest = await send({ 'X-API-Key': key, 'Customers-Version': LATEST_API_VERSION });
    expect(latest.headers['Customers-Version']).toBe(LATEST_API_VERSION);
    for (const name of ['Deprecation', 'Sunset', 'Link']) expect(latest.headers).not.toHaveProperty(name);
  });
});
