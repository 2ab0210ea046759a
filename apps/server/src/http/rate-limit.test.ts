import { describe, expect, it } from 'vitest';
import { setSellerRateLimit } from '../db/sellers.js';
import { FAILED_AUTH_LIMIT } from '../rate-limit/request-limits.js';
import { useTestServer } from '../test/use-test-server.js';
import type { TestResponse } from '../test/test-server.js';

// The windows follow a clock that stands still: a burst is one window however slowly the machine answers it.
const suite = useTestServer('sqlite', { rateLimit: { perSecond: 5, now: () => 0 } });

function expectLimitHeaders(response: TestResponse, policy: string) {
  expect(response.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"${policy}";q=\\d+;w=\\d+$`));
  expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"${policy}";r=\\d+;t=\\d+$`));
}

describe('rate limits (--rate-limit 5)', () => {
  it("answers 20 GETs at once with one key with some 429s; another seller's budget is its own", async () => {
    const [ada, bob] = [await suite.server.seller(), await suite.server.seller()];
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => suite.server.call('GET', '/api/customers', { key: ada.key })),
    );
    const refused = answers.filter((a) => a.status === 429);
    const served = answers.filter((a) => a.status === 200);
    // Five in the window (it cannot end during the burst: the clock stands still), the other fifteen refused.
    expect(served.length).toBe(5);
    expect(refused.length).toBe(15);
    for (const answer of served) {
      expectLimitHeaders(answer, 'seller');
      expect(answer.headers.get('ratelimit-policy')).toBe('"seller";q=5;w=1');
    }
    for (const answer of refused) {
      expect(Object.keys(answer.json).sort()).toEqual(['error', 'message']);
      expect(answer.json.error).toBe('Too Many Requests');
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(answer.headers.get('ratelimit')).toBe(`"seller";r=0;t=${answer.headers.get('retry-after')}`);
      expect(answer.headers.get('ratelimit-policy')).toBe('"seller";q=5;w=1');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
    const other = await suite.server.call('GET', '/api/customers', { key: bob.key });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toBe('"seller";r=4;t=1');
  });

  it('puts the headers on errors after authentication and on 405s', async () => {
    const seller = await suite.server.seller();
    const missing = await suite.server.call('GET', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', { key: seller.key });
    expect(missing.status).toBe(404);
    expectLimitHeaders(missing, 'seller');
    const put = await suite.server.call('PUT', '/api/customers', { key: seller.key });
    expect(put.status).toBe(405);
    expectLimitHeaders(put, 'seller');
  });

  it("applies a seller's own limit, and none for 0", async () => {
    const [own, unlimited] = [await suite.server.seller(), await suite.server.seller()];
    await setSellerRateLimit(suite.server.handle, own.sellerId, 50);
    await setSellerRateLimit(suite.server.handle, unlimited.sellerId, 0);
    expect((await suite.server.call('GET', '/api/customers', { key: own.key })).headers.get('ratelimit-policy')).toBe('"seller";q=50;w=1');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => suite.server.call('GET', '/api/customers', { key: unlimited.key })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers[0]!.headers.get('ratelimit')).toBeNull();
  });
});

describe('rate limits: failed authentications per client address', () => {
  const own = useTestServer('sqlite', { rateLimit: { perSecond: 5, now: () => 0 } });

  it(`refuses a bad key after ${FAILED_AUTH_LIMIT} failed authentications from the address, never a good key`, async () => {
    const seller = await own.server.seller();
    const bad = 'sk_live_' + 'x'.repeat(48);
    const failures = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT; i += 1) failures.push(await own.server.call('GET', '/api/customers', { key: bad }));
    expect(failures.map((f) => f.status)).toEqual(Array(FAILED_AUTH_LIMIT).fill(401));
    expectLimitHeaders(failures[0]!, 'unauthenticated');
    expect(failures.at(-1)!.headers.get('ratelimit')).toMatch(/^"unauthenticated";r=0;t=\d+$/);
    // Other clients' failures (or this one's) never refuse a valid key: it answers as usual.
    const good = await own.server.call('GET', '/api/customers', { key: seller.key });
    expect(good.status).toBe(200);
    expectLimitHeaders(good, 'seller');
    for (const key of [bad, 'sk_live_' + 'y'.repeat(48), 'not-even-a-key']) {
      const refused = await own.server.call('GET', '/api/customers', { key });
      expect(refused.status).toBe(429);
      expect(Object.keys(refused.json).sort()).toEqual(['error', 'message']);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.headers.get('ratelimit-policy')).toBe(`"unauthenticated";q=${FAILED_AUTH_LIMIT};w=60`);
    }
    expect((await own.server.call('GET', '/api/customers', { key: seller.key })).status).toBe(200);
  });
});
