// Simulating the server's rate limit, so a consumer can test how it slows down and retries.
import { createMemoryRateLimiter } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';
import { CustomersClient, RateLimitError } from '@customers-api/sdk';

const BASE = 'http://limited.test';
// A pinned clock: the window never ends, so the budget is spent for good.
const mock = createCustomersMock({ baseUrl: BASE, sellers: [{}, {}], rateLimit: createMemoryRateLimiter({ limit: 2, now: () => 0 }) });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const list = (apiKey: string) => fetch(`${BASE}/api/customers`, { headers: { 'X-API-Key': apiKey } });

describe('createCustomersMock({ rateLimit })', () => {
  it('answers 429 with Retry-After past the budget, the RateLimit headers on every answer, per seller', async () => {
    const [first, second] = mock.sellers.map((s) => s.apiKey);
    expect((await list(first!)).headers.get('ratelimit')).toBe('"seller";r=1;t=1');
    expect((await list(first!)).headers.get('ratelimit-policy')).toBe('"seller";q=2;w=1');
    const refused = await list(first!);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ error: 'Too Many Requests', message: 'Too many requests; retry after 1 second' });
    expect((await list(second!)).status).toBe(200);
  });

  it("reaches the SDK's RateLimitError with the spent budget once its retries run out", async () => {
    const client = new CustomersClient({ apiKey: mock.sellers[0]!.apiKey, baseUrl: BASE, maxRetries: 0 });
    const { error } = await client.customers.get('3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61').result();
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit).toEqual({ policy: 'seller', remaining: 0, resetSeconds: 1, limit: 2 });
  });
});
