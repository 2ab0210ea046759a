// Keys that are revoked or expired from the start, or that expire while the mock runs, answer 401 as on the server.
import { MESSAGES } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://keys.test';
// The clock is fake (Date only; MSW's timers stay real), so "expires in 300 ms" is exact, however loaded the machine.
const START = Date.parse('2026-11-25T09:30:00.000Z');
vi.useFakeTimers({ toFake: ['Date'], now: START });
const mock = createCustomersMock({
  baseUrl: BASE,
  sellers: [{}, { revoked: true }, { expiresAt: '2020-01-01T00:00:00Z' }, { expiresAt: new Date(START + 300).toISOString() }],
});
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  vi.useRealTimers();
});

const statusWith = async (apiKey: string) => {
  const response = await fetch(`${BASE}/api/customers/00000000-0000-4000-8000-000000000000`, { headers: { 'X-API-Key': apiKey } });
  return { status: response.status, body: await response.json() };
};

describe('key lifecycle', () => {
  it('refuses a key revoked or expired from the start, and one once it expires', async () => {
    const [usable, revoked, expired, expiring] = mock.sellers.map((seller) => seller.apiKey);
    expect((await statusWith(usable!)).status).toBe(404);
    for (const key of [revoked!, expired!]) {
      expect(await statusWith(key)).toEqual({ status: 401, body: { error: 'Unauthorized', message: MESSAGES.apiKeyInvalid } });
    }
    vi.setSystemTime(START + 299);
    expect((await statusWith(expiring!)).status).toBe(404);
    vi.setSystemTime(START + 300);
    expect((await statusWith(expiring!)).status).toBe(401);
  });
});
