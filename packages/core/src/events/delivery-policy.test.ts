import { describe, expect, it } from 'vitest';
import {
  isAcknowledged,
  nextRetryDelay,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_TIMEOUT_MS,
} from './delivery-policy.js';

const HOUR = 3_600_000;

describe('webhook delivery policy', () => {
  it('retries with growing delays for about three days, then gives up', () => {
    const delays = Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => nextRetryDelay(i + 1, () => 0));
    expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_MS]);
    expect(delays[0]).toBe(5000);
    for (let i = 1; i < delays.length; i++) expect(delays[i] as number).toBeGreaterThanOrEqual(delays[i - 1] as number);
    const total = delays.reduce((sum: number, delay) => sum + (delay as number), 0);
    expect(total).toBeGreaterThan(72 * HOUR);
    expect(total).toBeLessThan(78 * HOUR);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(12);
    expect(nextRetryDelay(WEBHOOK_MAX_ATTEMPTS)).toBeUndefined();
    expect(nextRetryDelay(0)).toBeUndefined();
  });

  it('disables an endpoint after 5 days of failures: longer than the whole retry schedule', () => {
    const schedule = WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(WEBHOOK_DISABLE_AFTER_MS).toBe(120 * HOUR);
    expect(WEBHOOK_DISABLE_AFTER_MS).toBeGreaterThan(schedule * 1.1);
  });

  it('adds at most 10% of jitter', () => {
    expect(nextRetryDelay(1, () => 0.999999)).toBe(5500);
    expect(nextRetryDelay(2, () => 0.5)).toBe(63_000);
  });

  it('counts any 2xx, and only a 2xx, as acknowledged, within 10 seconds', () => {
    expect([200, 201, 202, 204, 299].every(isAcknowledged)).toBe(true);
    expect([100, 199, 300, 301, 302, 304, 400, 410, 500, 503].some(isAcknowledged)).toBe(false);
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
  });
});
