import { describe, expect, it } from 'vitest';
import { checkRateLimit } from './check-rate-limit.js';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

const sellerId = '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a';

describe('checkRateLimit per mode', () => {
  it('gives test mode a budget of its own, as large as the live one', async () => {
    const limiter = createMemoryRateLimiter({ limit: 2, now: () => 0 });
    const live = { sellerId, customerLimit: 10 };
    const test = { ...live, mode: 'test' as const };
    await checkRateLimit(limiter, test);
    await checkRateLimit(limiter, test);
    await expect(checkRateLimit(limiter, test)).rejects.toMatchObject({ status: 429 });
    // Test traffic spent none of the live budget, and the live budget is the same size.
    await checkRateLimit(limiter, live);
    await checkRateLimit(limiter, live);
    await expect(checkRateLimit(limiter, live)).rejects.toMatchObject({ status: 429 });
  });
});
