import { describe, expect, it } from 'vitest';
import { isApiError } from '../errors/api-error.js';
import { checkRateLimit } from './check-rate-limit.js';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

const seller = { sellerId: 's1', customerLimit: 10 };

describe('checkRateLimit', () => {
  it('answers the draft headers while the budget lasts, then a 429 with Retry-After and the same fields', async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, now: () => 0 });
    expect(await checkRateLimit(limiter, seller)).toEqual({
      'RateLimit-Policy': '"seller";q=1;w=1',
      RateLimit: '"seller";r=0;t=1',
    });
    const refused = await checkRateLimit(limiter, seller).catch((error: unknown) => error);
    if (!isApiError(refused)) throw new Error('expected a 429');
    expect(refused.status).toBe(429);
    expect(refused.toBody()).toEqual({ error: 'Too Many Requests', message: 'Too many requests; retry after 1 second' });
    expect(refused.headers).toEqual({
      'Retry-After': '1',
      'RateLimit-Policy': '"seller";q=1;w=1',
      RateLimit: '"seller";r=0;t=1',
    });
  });

  it("uses the seller's own limit, and none at all for 0", async () => {
    const limiter = createMemoryRateLimiter({ limit: 1, now: () => 0 });
    expect((await checkRateLimit(limiter, { ...seller, rateLimit: 3 })).RateLimit).toBe('"seller";r=2;t=1');
    for (let i = 0; i < 5; i += 1) expect(await checkRateLimit(limiter, { ...seller, sellerId: 's2', rateLimit: 0 })).toEqual({});
  });
});
