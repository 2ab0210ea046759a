// Customers-Version over the mock's real HTTP: core's rule, with no code of the mock's own but CORS.
import { API_VERSIONS, LATEST_API_VERSION } from '@customers-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { ada, key, raw } from './support.js';

let mock: MockServer;
let url: string;
const refusal = `Customers-Version header must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}`;
const list = (extra: Record<string, string> = {}) => fetch(`${url}/api/customers`, { headers: { 'X-API-Key': key('a'), ...extra } });

beforeAll(async () => {
  mock = await createMockServer({ seed: parseSeed({ sellers: [{ keys: [{ key: key('a') }], customers: [ada] }] }) });
  url = await mock.listen(0);
});
afterAll(() => mock.close());

describe('Customers-Version', () => {
  it('answers without the header in the latest version, and in a supported version asked for', async () => {
    const plain = await list();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const asked = await list({ 'Customers-Version': '2026-11-26' });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('customers-version')).toBe('2026-11-26');
  });

  it.each(['2020-13-01', '2020-01-01'])('refuses %s with 400 naming the header, before the API key', async (sent) => {
    for (const response of [await list({ 'Customers-Version': sent }), await fetch(`${url}/api/customers`, { headers: { 'Customers-Version': sent } })]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Bad Request', message: refusal });
      expect(response.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    }
  });

  it('carries it on unknown paths, forced answers and Prefer examples', async () => {
    const version = { 'Customers-Version': LATEST_API_VERSION };
    expect((await fetch(`${url}/api/nope`, { headers: version })).headers.get('customers-version')).toBe(LATEST_API_VERSION);
    expect((await list({ ...version, Prefer: 'code=500' })).headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const example = await list({ ...version, Prefer: 'example=firstPage' });
    expect(example.status).toBe(200);
    expect(example.headers.get('customers-version')).toBe(LATEST_API_VERSION);
  });

  it('lets a browser send and read it (CORS)', async () => {
    const preflight = await raw(`${url}/api/customers`, 'OPTIONS', { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET' });
    expect(String(preflight.headers['access-control-allow-headers']).split(', ')).toContain('Customers-Version');
    const response = await list({ Origin: 'http://app.test' });
    expect(response.headers.get('access-control-expose-headers')?.split(', ')).toContain('Customers-Version');
  });
});
