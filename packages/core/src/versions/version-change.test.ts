import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { createApiHandler } from '../http/api-handler.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { FIXTURE_CHANGE, FIXTURE_OLD_VERSION, fixtureVersioning } from '../testing/fixture-version.js';
import { API_VERSIONS, LATEST_API_VERSION } from './api-version.js';
import { API_VERSIONING, createApiVersioning } from './version-change.js';
import { live } from '../testing/tenants.js';

const SELLER = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';
const person = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

async function setUp() {
  const key = generateApiKey();
  const keys = new MemoryKeyRegistry();
  await keys.add(key, { sellerId: SELLER, customerLimit: 10 });
  const store = new MemoryCustomerStore();
  const handle = createApiHandler({
    service: createCustomerService({ store }),
    lookupKey: keys.lookup,
    versioning: fixtureVersioning(),
  });
  const send = (method: string, path: string, version: string | undefined, body?: unknown) => {
    const headers = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
    if (version) headers.set('Customers-Version', version);
    return handle({
      method,
      path,
      header: (name) => headers.get(name),
      body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
    });
  };
  return { store, send };
}

describe('createApiVersioning', () => {
  it('has no changes for the latest version, so the latest path walks no chain', () => {
    expect(API_VERSIONING.latest).toBe(LATEST_API_VERSION);
    expect(API_VERSIONING.changesFor(LATEST_API_VERSION)).toBeUndefined();
    expect(fixtureVersioning().changesFor(LATEST_API_VERSION)).toBeUndefined();
    expect(fixtureVersioning().changesFor(FIXTURE_OLD_VERSION)).toEqual([FIXTURE_CHANGE]);
  });

  it('refuses a change that names an unlisted version or the oldest one', () => {
    expect(() => createApiVersioning(API_VERSIONS, [{ ...FIXTURE_CHANGE, version: '2030-01-01' }])).toThrow(/follows no listed version/);
    expect(() => createApiVersioning(API_VERSIONS, [FIXTURE_CHANGE])).toThrow(/follows no listed version/);
    expect(() => createApiVersioning([], [])).toThrow(/at least one version/);
  });
});

describe('the version chain in createApiHandler (fixture: company became company_name)', () => {
  it('lets an old caller send and read `company` while the store and new callers see `company_name`', async () => {
    const { store, send } = await setUp();
    const created = await send('POST', '/api/customers', FIXTURE_OLD_VERSION, { ...person, company: 'Engines Ltd' });
    expect(created.status).toBe(201);
    expect(created.headers['Customers-Version']).toBe(FIXTURE_OLD_VERSION);
    const old = created.body as Record<string, unknown>;
    expect(old.company).toBe('Engines Ltd');
    expect(old).not.toHaveProperty('company_name');

    const stored = await store.findCustomer(live(SELLER), old.id as string);
    expect(stored?.company_name).toBe('Engines Ltd');
    expect(stored).not.toHaveProperty('company');

    const latest = await send('GET', `/api/customers/${String(old.id)}`, undefined);
    expect((latest.body as Record<string, unknown>).company_name).toBe('Engines Ltd');
    expect(latest.body).not.toHaveProperty('company');
    const page = await send('GET', '/api/customers', FIXTURE_OLD_VERSION);
    expect((page.body as { data: Record<string, unknown>[] }).data[0]).toMatchObject({ company: 'Engines Ltd' });
    expect((page.body as { data: Record<string, unknown>[] }).data[0]).not.toHaveProperty('company_name');

    const updated = await send('PATCH', `/api/customers/${String(old.id)}`, FIXTURE_OLD_VERSION, { company: 'Byron & Co' });
    expect(updated.body).toMatchObject({ company: 'Byron & Co' });
    expect((await store.findCustomer(live(SELLER), old.id as string))?.company_name).toBe('Byron & Co');
  });

  it('names the field of the caller’s version in error messages', async () => {
    const { send } = await setUp();
    const old = await send('POST', '/api/customers', FIXTURE_OLD_VERSION, { ...person, company: 7 });
    expect(old.status).toBe(400);
    expect(old.body).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });
    const latest = await send('POST', '/api/customers', LATEST_API_VERSION, { ...person, company_name: 7 });
    expect(latest.body).toEqual({ error: 'Bad Request', message: 'company_name must be a string or null' });
    // The latest version does not know the old name.
    const unknown = await send('POST', '/api/customers', undefined, { ...person, company: 'x' });
    expect(unknown.status).toBe(400);
  });

  it('refuses the fixture version on a host without it', async () => {
    const keys = new MemoryKeyRegistry();
    const handle = createApiHandler({ service: createCustomerService({ store: new MemoryCustomerStore() }), lookupKey: keys.lookup });
    const headers = new Headers({ 'Customers-Version': FIXTURE_OLD_VERSION });
    const response = await handle({ method: 'GET', path: '/api/customers', header: (name) => headers.get(name), body: null });
    expect(response.status).toBe(400);
  });
});

describe('a seller pinned to an earlier version', () => {
  it('gets it without the header (after authentication), the version named in the header with it', async () => {
    const key = generateApiKey();
    const keys = new MemoryKeyRegistry();
    await keys.add(key, { sellerId: SELLER, customerLimit: 10, apiVersion: FIXTURE_OLD_VERSION });
    const handle = createApiHandler({
      service: createCustomerService({ store: new MemoryCustomerStore() }),
      lookupKey: keys.lookup,
      versioning: fixtureVersioning(),
    });
    const send = (headers: Record<string, string>, body?: unknown) => {
      const h = new Headers({ 'Content-Type': 'application/json', ...headers });
      return handle({
        method: 'POST',
        path: '/api/customers',
        header: (name) => h.get(name),
        body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
      });
    };
    const pinned = await send({ 'X-API-Key': key }, { ...person, company: 'Engines Ltd' });
    expect(pinned.status).toBe(201);
    expect(pinned.headers['Customers-Version']).toBe(FIXTURE_OLD_VERSION);
    expect(pinned.body).toMatchObject({ company: 'Engines Ltd' });
    const pinnedError = await send({ 'X-API-Key': key }, { ...person, email: 'b@example.com', company: 7 });
    expect(pinnedError.body).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });
    expect(pinnedError.headers['Customers-Version']).toBe(FIXTURE_OLD_VERSION);
    const asked = await send({ 'X-API-Key': key, 'Customers-Version': LATEST_API_VERSION }, { ...person, email: 'c@example.com', company_name: 'X' });
    expect(asked.headers['Customers-Version']).toBe(LATEST_API_VERSION);
    expect(asked.body).toMatchObject({ company_name: 'X' });
    // Before a seller is known: the latest (no header) or the version asked for.
    expect((await send({})).headers['Customers-Version']).toBe(LATEST_API_VERSION);
  });

  it('gets the latest once the pinned version is past its sunset', async () => {
    const key = generateApiKey();
    const keys = new MemoryKeyRegistry();
    await keys.add(key, { sellerId: SELLER, customerLimit: 10, apiVersion: FIXTURE_OLD_VERSION });
    const handle = createApiHandler({
      service: createCustomerService({ store: new MemoryCustomerStore() }),
      lookupKey: keys.lookup,
      versioning: fixtureVersioning({ sunset: '2026-12-01' }),
      now: () => new Date('2026-12-01T00:00:00Z'),
    });
    const h = new Headers({ 'X-API-Key': key });
    const response = await handle({ method: 'GET', path: '/api/customers', header: (name) => h.get(name), body: null });
    expect(response.status).toBe(200);
    expect(response.headers['Customers-Version']).toBe(LATEST_API_VERSION);
  });
});
