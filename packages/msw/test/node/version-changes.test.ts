// Core's version chain in the MSW handlers, with a test-only fixture version (it called `company_name` `company`).
import { API_CHANGELOG_URL, LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const mock = createCustomersMock({ sellers: [{}], versioning: fixtureVersioning() });
const server = setupServer(...mock.handlers);
const base = 'https://api.example.test/api/customers';
const send = (method: string, path: string, version: string | undefined, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      'X-API-Key': mock.sellers[0]!.apiKey,
      'Content-Type': 'application/json',
      ...(version && { 'Customers-Version': version }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('version changes', () => {
  it('lets an old caller send and read `company` while the store and new callers have `company_name`', async () => {
    const created = await send('POST', '', FIXTURE_OLD_VERSION, { ...ada, company: 'Engines Ltd' });
    expect(created.status).toBe(201);
    expect(created.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    const old = (await created.json()) as Record<string, unknown>;
    expect(old).toMatchObject({ company: 'Engines Ltd' });
    expect(old).not.toHaveProperty('company_name');

    const latest = await send('GET', `/${String(old.id)}`, undefined);
    expect(latest.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const body = (await latest.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ company_name: 'Engines Ltd' });
    expect(body).not.toHaveProperty('company');
  });

  it('names the field of the caller’s version in error messages', async () => {
    const old = await send('POST', '', FIXTURE_OLD_VERSION, { ...ada, email: 'x@example.com', company: 7 });
    expect(await old.json()).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });
    const latest = await send('POST', '', undefined, { ...ada, email: 'x@example.com', company_name: 7 });
    expect(await latest.json()).toEqual({ error: 'Bad Request', message: 'company_name must be a string or null' });
  });
});

describe('a deprecated version', () => {
  it('answers it with Deprecation, Sunset and Link; the latest without them', async () => {
    const deprecated = createCustomersMock({
      sellers: [{}],
      baseUrl: 'https://deprecated.example.test',
      versioning: fixtureVersioning({ deprecated: '2026-11-26', sunset: '2099-01-01' }),
    });
    server.use(...deprecated.handlers);
    const get = (version: string) =>
      fetch('https://deprecated.example.test/api/customers', {
        headers: { 'X-API-Key': deprecated.sellers[0]!.apiKey, 'Customers-Version': version },
      });
    const old = await get(FIXTURE_OLD_VERSION);
    expect(old.status).toBe(200);
    expect(old.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 26) / 1000}`);
    expect(old.headers.get('sunset')).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
    expect(old.headers.get('link')).toBe(`<${API_CHANGELOG_URL}#${FIXTURE_OLD_VERSION}>; rel="deprecation"`);
    const latest = await get(LATEST_API_VERSION);
    for (const name of ['deprecation', 'sunset', 'link']) expect(latest.headers.get(name)).toBeNull();
  });
});

describe('a seller pinned to an earlier version', () => {
  it('is answered in it without the header, in the latest when the header names it', async () => {
    const pinned = createCustomersMock({
      sellers: [{ apiVersion: FIXTURE_OLD_VERSION }],
      baseUrl: 'https://pinned.example.test',
      versioning: fixtureVersioning(),
    });
    server.use(...pinned.handlers);
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch('https://pinned.example.test/api/customers', {
        method: 'POST',
        headers: { 'X-API-Key': pinned.sellers[0]!.apiKey, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const old = await post({}, { ...ada, company: 'Engines Ltd' });
    expect(old.status).toBe(201);
    expect(old.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    expect(await old.json()).toMatchObject({ company: 'Engines Ltd' });
    const latest = await post({ 'Customers-Version': LATEST_API_VERSION }, { ...ada, email: 'p@example.com', company_name: 'X' });
    expect(latest.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    expect(await latest.json()).toMatchObject({ company_name: 'X' });
  });
});
