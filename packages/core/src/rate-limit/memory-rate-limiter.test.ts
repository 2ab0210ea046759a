import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './memory-rate-limiter.js';

describe('createMemoryRateLimiter', () => {
  it('allows `limit` requests per window, then refuses until the window ends', () => {
    let now = 1_000_000;
    const limiter = createMemoryRateLimiter({ limit: 2, now: () => now });
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(limiter.consume('a')).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
    now += 999;
    expect(limiter.consume('a').allowed).toBe(false);
    now += 1;
    expect(limiter.consume('a')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
  });

  it('counts each key apart and honours a per-key limit', () => {
    const limiter = createMemoryRateLimiter({ limit: 1, now: () => 0 });
    expect(limiter.consume('a').allowed).toBe(true);
    expect(limiter.consume('a').allowed).toBe(false);
    expect(limiter.consume('b').allowed).toBe(true);
    expect(limiter.consume('c', 3)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 1 });
  });

  it('rounds the reset up to whole seconds of a longer window', () => {
    let now = 0;
    const limiter = createMemoryRateLimiter({ limit: 1, windowSeconds: 60, now: () => now });
    expect(limiter.windowSeconds).toBe(60);
    limiter.consume('a');
    now = 30_500;
    expect(limiter.consume('a')).toEqual({ allowed: false, limit: 1, remaining: 0, resetSeconds: 30 });
  });
});
