import { describe, expect, it } from 'vitest';
import { ADA, apiError, ID, json, KEY, scriptedFetch } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { RateLimitError } from './errors';
import { rateLimitOf } from './rate-limit';

const LIMITED = { ratelimit: '"seller";r=42;t=1', 'ratelimit-policy': '"seller";q=100;w=1' };

describe('rateLimitOf', () => {
  it('reads remaining and reset from RateLimit and the quota from the matching RateLimit-Policy', () => {
    expect(rateLimitOf(new Headers(LIMITED))).toEqual({ policy: 'seller', remaining: 42, resetSeconds: 1, limit: 100 });
    const two = new Headers({ ratelimit: '"unauthenticated";r=0;t=37', 'ratelimit-policy': '"seller";q=5;w=1, "unauthenticated";q=20;w=60' });
    expect(rateLimitOf(two)).toEqual({ policy: 'unauthenticated', remaining: 0, resetSeconds: 37, limit: 20 });
  });

  it('is undefined without the field or when it does not parse; unknown parts are left out', () => {
    expect(rateLimitOf(new Headers())).toBeUndefined();
    for (const field of ['seller;r=1;t=1', '"seller";t=1', '"seller";r=-1', '']) {
      expect(rateLimitOf(new Headers({ ratelimit: field })), field).toBeUndefined();
    }
    expect(rateLimitOf(new Headers({ ratelimit: '"seller";r=3' }))).toEqual({ policy: 'seller', remaining: 3, resetSeconds: undefined, limit: undefined });
  });
});

describe('the rate limit on results and errors', () => {
  it('withResponse() carries the parsed RateLimit; undefined when the server sends none', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, LIMITED), json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    expect((await client.customers.get(ID).withResponse()).rateLimit).toEqual({ policy: 'seller', remaining: 42, resetSeconds: 1, limit: 100 });
    expect((await client.customers.get(ID).withResponse()).rateLimit).toBeUndefined();
  });

  it('RateLimitError carries the spent budget', async () => {
    const headers = { ...LIMITED, ratelimit: '"seller";r=0;t=1', 'retry-after': '1' };
    const { fetch } = scriptedFetch([apiError(429, 'Too Many Requests', 'Too many requests; retry after 1 second', headers)]);
    const { error } = await new CustomersClient({ apiKey: KEY, fetch, maxRetries: 0 }).customers.get(ID).result();
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).rateLimit).toEqual({ policy: 'seller', remaining: 0, resetSeconds: 1, limit: 100 });
  });
});
