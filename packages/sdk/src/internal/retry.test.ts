import { describe, expect, it, vi } from 'vitest';
import { isRetryableRequest, isRetryableStatus, shouldRetry } from './retry';
import { backoffMs, retryAfterMs, retryDelayMs } from './retry-delay';

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 5xx only', () => {
    for (const s of [408, 429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(s), String(s)).toBe(true);
    for (const s of [200, 201, 204, 301, 400, 401, 403, 404, 409, 413, 415, 422]) {
      expect(isRetryableStatus(s), String(s)).toBe(false);
    }
  });
});

describe('isRetryableRequest', () => {
  it('retries GET, PATCH and DELETE, and POST only with an Idempotency-Key', () => {
    expect(isRetryableRequest('GET', new Headers())).toBe(true);
    expect(isRetryableRequest('PATCH', new Headers())).toBe(true);
    expect(isRetryableRequest('DELETE', new Headers())).toBe(true);
    expect(isRetryableRequest('POST', new Headers())).toBe(false);
    expect(isRetryableRequest('POST', new Headers({ 'Idempotency-Key': 'k' }))).toBe(true);
  });
});

describe('shouldRetry', () => {
  const status = (code: number, headers: Record<string, string> = {}) => new Response(null, { status: code, headers });

  it('retries a failure without a response and a retryable status while attempts are left', () => {
    expect(shouldRetry(undefined, 1, 2, 'GET', {})).toBe(true);
    expect(shouldRetry(status(503), 2, 2, 'GET', {})).toBe(true);
    expect(shouldRetry(status(503), 3, 2, 'GET', {})).toBe(false);
    expect(shouldRetry(undefined, 1, 0, 'GET', {})).toBe(false);
    expect(shouldRetry(status(404), 1, 2, 'GET', {})).toBe(false);
  });

  it('lets x-should-retry overrule the status, never the attempts left or an unsafe request', () => {
    expect(shouldRetry(status(409, { 'x-should-retry': 'true' }), 1, 2, 'GET', {})).toBe(true);
    expect(shouldRetry(status(503, { 'x-should-retry': 'false' }), 1, 2, 'GET', {})).toBe(false);
    expect(shouldRetry(status(409, { 'x-should-retry': 'true' }), 3, 2, 'GET', {})).toBe(false);
    expect(shouldRetry(status(503, { 'x-should-retry': 'true' }), 1, 2, 'POST', {})).toBe(false);
  });

  it('reads the Idempotency-Key of a POST from a plain object or Headers, in any letter case', () => {
    expect(shouldRetry(status(503), 1, 2, 'POST', { 'Idempotency-Key': 'k' })).toBe(true);
    expect(shouldRetry(status(503), 1, 2, 'POST', { 'idempotency-key': 'k' })).toBe(true);
    expect(shouldRetry(undefined, 1, 2, 'POST', new Headers({ 'IDEMPOTENCY-KEY': 'k' }))).toBe(true);
    expect(shouldRetry(undefined, 1, 2, 'POST', {})).toBe(false);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-25T10:00:00Z');
  it('reads retry-after-ms first', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }), now)).toBe(1500);
  });
  it('reads Retry-After in seconds, fractions included', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.25' }), now)).toBe(250);
  });
  it('reads Retry-After as an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 25 Nov 2026 09:00:00 GMT' }), now)).toBe(0);
  });
  it('ignores missing or unreadable values', () => {
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after-ms': 'x', 'retry-after': '2' }), now)).toBe(2000);
  });
});

describe('backoffMs', () => {
  it('doubles from 0.5 s up to the 8 s cap, scaled by full jitter', () => {
    const ceiling = [500, 1000, 2000, 4000, 8000, 8000, 8000];
    ceiling.forEach((cap, attempt) => {
      expect(backoffMs(attempt, () => 0.999999)).toBeCloseTo(cap * 0.999999, 3);
      expect(backoffMs(attempt, () => 0.5)).toBe(cap / 2);
      expect(backoffMs(attempt, () => 0)).toBe(0);
    });
  });
});

describe('retryDelayMs', () => {
  it('prefers a Retry-After of at most 60 s, else backs off', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    expect(retryDelayMs(0, new Headers({ 'retry-after': '7' }))).toBe(7000);
    expect(retryDelayMs(0, new Headers({ 'retry-after': '60' }))).toBe(60_000);
    expect(retryDelayMs(1, new Headers({ 'retry-after': '61' }))).toBe(500);
    expect(retryDelayMs(2)).toBe(1000);
    vi.restoreAllMocks();
  });
});
