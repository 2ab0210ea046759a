// Failed authentications under --rate-limit, as on the server (core's rule, limitFailedAuthentication): an address
// gets 20 a minute, then a wrong key is 429; a good key is answered whatever the address did; the mock's clock
// (not the wall clock) ends the window.
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_SECONDS } from '@customers-api/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, parseSeed, type MockServer } from '../src/index.js';
import { key } from './support.js';

let mock: MockServer;
let url: string;
beforeAll(async () => {
  mock = await createMockServer({ seed: parseSeed({ sellers: [{ keys: [{ key: key('g') }] }] }), rateLimit: 1_000 });
  url = await mock.listen(0);
});
afterAll(() => mock.close());

const list = (apiKey: string) => fetch(`${url}/api/customers`, { headers: { 'X-API-Key': apiKey } });

describe('failed authentications under --rate-limit', () => {
  it(`refuses a wrong key from an address after ${FAILED_AUTH_LIMIT} failures a window, never a good key`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT; i += 1) {
      const failure = await list(key('w'));
      statuses.push(failure.status);
      expect(failure.headers.get('ratelimit-policy')).toBe(`"unauthenticated";q=${FAILED_AUTH_LIMIT};w=${FAILED_AUTH_WINDOW_SECONDS}`);
      await failure.body?.cancel();
    }
    expect(statuses).toEqual(Array(FAILED_AUTH_LIMIT).fill(401));
    const refused = await list(key('w'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: 'Too Many Requests', message: expect.stringMatching(/^Too many requests; retry after \d+ seconds?$/) });
    expect((await list(key('g'))).status).toBe(200);

    mock.api.clock.advance(FAILED_AUTH_WINDOW_SECONDS * 1000);
    expect((await list(key('w'))).status).toBe(401);
  });
});
