import { expect, it } from 'vitest';
import { retryAfterMs, retryDelayMs } from './retry-delay';

const now = Date.parse('2026-11-25T09:30:00Z');

it('treats an empty or blank Retry-After as absent, not as "retry now"', () => {
  expect(retryAfterMs(new Headers({ 'retry-after': '' }), now)).toBeUndefined();
  expect(retryAfterMs(new Headers({ 'retry-after': '  ' }), now)).toBeUndefined();
  expect(retryAfterMs(new Headers({ 'retry-after-ms': '', 'retry-after': '3' }), now)).toBe(3000);
  expect(retryAfterMs(new Headers({ 'retry-after-ms': ' ', 'retry-after': '' }), now)).toBeUndefined();
});

it('never asks for a negative wait', () => {
  expect(retryAfterMs(new Headers({ 'retry-after-ms': '-5' }), now)).toBe(0);
  expect(retryAfterMs(new Headers({ 'retry-after': '-5' }), now)).toBe(0);
  expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 09:29:00 GMT' }), now)).toBe(0);
});

it('falls back to backoff (below 0.5 s on the first retry) when Retry-After is empty or over 60 s', () => {
  for (const value of ['', '61']) {
    const delay = retryDelayMs(0, new Headers({ 'retry-after': value }));
    expect(delay, value).toBeGreaterThanOrEqual(0);
    expect(delay, value).toBeLessThan(500);
  }
  expect(retryDelayMs(0, new Headers({ 'retry-after': '60' }))).toBe(60_000);
});
