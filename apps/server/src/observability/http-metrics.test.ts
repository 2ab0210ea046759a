import { describe, expect, it } from 'vitest';
import { limitOf } from './http-metrics.js';

describe('limitOf', () => {
  it('names the limit of a 429 by its RateLimit-Policy, from a fixed set', () => {
    expect(limitOf('"seller";q=100;w=1')).toBe('seller');
    expect(limitOf('"unauthenticated";q=20;w=60')).toBe('unauthenticated');
    expect(limitOf('"webhook-actions";q=10;w=60')).toBe('other');
    expect(limitOf(undefined)).toBe('other');
    expect(limitOf('seller')).toBe('other');
  });
});
