// Core's version chain over the mock's real HTTP, with a test-only fixture version (it called `company_name` `company`).
import { API_CHANGELOG_URL, LATEST_API_VERSION } from '@customers-api/core';
import { FIXTURE_OLD_VERSION, fixtureVersioning } from '@customers-api/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { ada, key } from './support.js';

let mock: MockServer;
let url: string;
const send = (method: string, path: string, version: string | undefined, body?: unknown) =>
  fetch(`${url}/api/customers${path}`, {
    method,
    headers: { 'X-API-Key': key('a'), 'Content-Type': 'application/json', ...(version && { 'Customers-Version': version }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  mock = await createMockServer({
    seed: parseSeed({ sellers: [{ keys: [{ key: key('a') }], customers: [{ ...ada, company_name: 'Engines Ltd' }] }] }),
    versioning: fixtureVersioning(),
  });
  url = await mock.listen(0);
});
afterAll(() => mock.close());

describe('version changes', () => {
  it('shows an old caller `company` and a new caller `company_name` of the same stored customer', async () => {
    const old = await send('GET', '', FIXTURE_OLD_VERSION);
    expect(old.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
    const [oldAda] = ((await old.json()) as { data: Record<string, unknown>[] }).data;
    expect(oldAda).toMatchObject({ company: 'Engines Ltd' });
    expect(oldAda).not.toHaveProperty('company_name');
    const latest = await send('GET', '', undefined);
    expect(latest.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const [newAda] = ((await latest.json()) as { data: Record<string, unknown>[] }).data;
    expect(newAda).toMatchObject({ company_name: 'Engines Ltd' });
    expect(newAda).not.toHaveProperty('company');

    const updated = await send('PATCH', `/${String(oldAda!.id)}`, FIXTURE_OLD_VERSION, { company: 'Byron & Co' });
    expect(await updated.json()).toMatchObject({ company: 'Byron & Co' });
    expect(await (await send('GET', `/${String(oldAda!.id)}`, undefined)).json()).toMatchObject({ company_name: 'Byron & Co' });
  });

  it('names the field of the caller’s version in error messages', async () => {
    const old = await send('POST', '', FIXTURE_OLD_VERSION, { ...ada, email: 'x@example.com', company: 7 });
    expect(old.status).toBe(400);
    expect(await old.json()).toEqual({ error: 'Bad Request', message: 'company must be a string or null' });
  });
});

describe('a deprecated version', () => {
  it('answers it with Deprecation, Sunset and Link, exposed to browsers; the latest without them', async () => {
    const deprecated = await createMockServer({
      seed: parseSeed({ sellers: [{ keys: [{ key: key('a') }] }] }),
      versioning: fixtureVersioning({ deprecated: '2026-11-26', sunset: '2099-01-01' }),
    });
    const at = await deprecated.listen(0);
    try {
      const get = (version: string) =>
        fetch(`${at}/api/customers`, { headers: { 'X-API-Key': key('a'), 'Customers-Version': version, Origin: 'http://app.test' } });
      const old = await get(FIXTURE_OLD_VERSION);
      expect(old.status).toBe(200);
      expect(old.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 26) / 1000}`);
      expect(old.headers.get('sunset')).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
      expect(old.headers.get('link')).toBe(`<${API_CHANGELOG_URL}#${FIXTURE_OLD_VERSION}>; rel="deprecation"`);
      expect(old.headers.get('access-control-expose-headers')).toContain('Deprecation, Sunset, Link');
      const latest = await get(LATEST_API_VERSION);
      for (const name of ['deprecation', 'sunset', 'link']) expect(latest.headers.get(name)).toBeNull();
    } finally {
      await deprecated.close();
    }
  });
});

describe('a seeded seller pinned to an earlier version', () => {
  it('is answered in it without the header, in the latest when the header names it', async () => {
    // The fixture version is known to this mock only, so the seed file's check (openapi.yaml's versions) is passed by.
    const seed = parseSeed({ sellers: [{ keys: [{ key: key('b') }] }] });
    const pinned = await createMockServer({
      seed: { ...seed, sellers: seed.sellers!.map((seller) => ({ ...seller, apiVersion: FIXTURE_OLD_VERSION })) },
      versioning: fixtureVersioning(),
    });
    const at = await pinned.listen(0);
    try {
      const post = (headers: Record<string, string>, body: unknown) =>
        fetch(`${at}/api/customers`, { method: 'POST', headers: { 'X-API-Key': key('b'), 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const old = await post({}, { ...ada, company: 'Engines Ltd' });
      expect(old.status).toBe(201);
      expect(old.headers.get('customers-version')).toBe(FIXTURE_OLD_VERSION);
      expect(await old.json()).toMatchObject({ company: 'Engines Ltd' });
      const latest = await post({ 'Customers-Version': LATEST_API_VERSION }, { ...ada, email: 'b@example.com', company_name: 'X' });
      expect(latest.headers.get('customers-version')).toBe(LATEST_API_VERSION);
      expect(await latest.json()).toMatchObject({ company_name: 'X' });
    } finally {
      await pinned.close();
    }
  });
});
