// Customers-Version in the MSW handlers: core's rule, with no code of MSW's own.
import { API_VERSIONS, LATEST_API_VERSION } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const mock = createCustomersMock({ sellers: [{}] });
const server = setupServer(...mock.handlers);
const refusal = `Customers-Version header must be one of: ${API_VERSIONS.map((entry) => entry.version).join(', ')}`;
const list = (headers: Record<string, string> = {}) =>
  fetch('https://api.example.test/api/customers', { headers: { 'X-API-Key': mock.sellers[0]!.apiKey, ...headers } });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

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
    const noKey = await fetch('https://api.example.test/api/customers', { headers: { 'Customers-Version': sent } });
    for (const response of [await list({ 'Customers-Version': sent }), noKey]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'Bad Request', message: refusal });
      expect(response.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    }
  });

  it('carries it on a 401 and a 405', async () => {
    const version = { 'Customers-Version': LATEST_API_VERSION };
    const unauthorized = await fetch('https://api.example.test/api/customers', { headers: version });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('customers-version')).toBe(LATEST_API_VERSION);
    const put = await fetch('https://api.example.test/api/customers', { method: 'PUT', headers: { ...version, 'X-API-Key': mock.sellers[0]!.apiKey } });
    expect(put.status).toBe(405);
    expect(put.headers.get('customers-version')).toBe(LATEST_API_VERSION);
  });
});
