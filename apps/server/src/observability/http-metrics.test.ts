import { describe, expect, it } from 'vitest';
import { limitOf, schemeOf } from './http-metrics.js';

describe('limitOf', () => {
  it('names the limit of a 429 by its RateLimit-Policy, from a fixed set', () => {
    expect(limitOf('"seller";q=100;w=1')).toBe('seller');
    expect(limitOf('"unauthenticated";q=20;w=60')).toBe('unauthenticated');
    expect(limitOf('"webhook-actions";q=10;w=60')).toBe('other');
    expect(limitOf(undefined)).toBe('other');
    expect(limitOf('seller')).toBe('other');
  });
});

describe('schemeOf', () => {
  it('is https only for https, so a forwarded header cannot grow the label', () => {
    expect(schemeOf('https')).toBe('https');
    expect(schemeOf('http')).toBe('http');
    expect(schemeOf('gopher')).toBe('http');
  });
});
