import { describe, expect, it } from 'vitest';
import type { ApiError } from '../errors/api-error.js';
import { errors } from '../errors/registry.js';
import { FAILED_AUTH_LIMIT, FAILED_AUTH_WINDOW_SECONDS, limiterAddress, limitFailedAuthentication } from './failed-authentication.js';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

describe('limiterAddress', () => {
  it('keeps IPv4 addresses, and judges IPv4-mapped IPv6 by the IPv4 part', () => {
    expect(limiterAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limiterAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limiterAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
  });
  it('groups IPv6 addresses by their /64, however they are written', () => {
    expect(limiterAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limiterAddress('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(limiterAddress('::1')).toBe('0:0:0:0::/64');
    expect(limiterAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limiterAddress('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });
  it('leaves anything that is not an address as it is', () => {
    expect(limiterAddress('unknown')).toBe('unknown');
  });
});

describe('limitFailedAuthentication', () => {
  it('adds the budget to a 401, refuses with 429 past it, and passes any other error through', async () => {
    let now = 0;
    const limiter = createMemoryRateLimiter({ limit: FAILED_AUTH_LIMIT, windowSeconds: FAILED_AUTH_WINDOW_SECONDS, now: () => now });
    const failures = [];
    for (let i = 0; i <= FAILED_AUTH_LIMIT; i += 1) failures.push(await limitFailedAuthentication(limiter, '2001:db8:1:2::7', errors.apiKeyInvalid()));
    expect(failures.slice(0, FAILED_AUTH_LIMIT).map((f) => (f as ApiError).status)).toEqual(Array(FAILED_AUTH_LIMIT).fill(401));
    expect((failures[0] as ApiError).headers).toMatchObject({ 'WWW-Authenticate': 'Bearer', RateLimit: `"unauthenticated";r=${FAILED_AUTH_LIMIT - 1};t=60` });
    const refused = failures.at(-1) as ApiError;
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ 'Retry-After': '60', 'RateLimit-Policy': `"unauthenticated";q=${FAILED_AUTH_LIMIT};w=60` });
    // Another address of the same /64 shares the budget; the window's end refills it.
    expect(((await limitFailedAuthentication(limiter, '2001:db8:1:2::8', errors.apiKeyMissing())) as ApiError).status).toBe(429);
    now += FAILED_AUTH_WINDOW_SECONDS * 1000;
    expect(((await limitFailedAuthentication(limiter, '2001:db8:1:2::8', errors.apiKeyMissing())) as ApiError).status).toBe(401);
    const other = errors.customerNotFound();
    expect(await limitFailedAuthentication(limiter, '192.0.2.1', other)).toBe(other);
  });
});
