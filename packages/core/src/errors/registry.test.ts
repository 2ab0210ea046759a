import { describe, expect, it } from 'vitest';
import { REASON_PHRASES } from './api-error.js';
import { errors } from './registry.js';

describe('the error registry', () => {
  it('answers a request that did not arrive in time with 408 Request Timeout', () => {
    const error = errors.requestTimeout();
    expect(error.status).toBe(408);
    expect(error.toBody()).toEqual({ error: 'Request Timeout', message: 'The request was not received in time' });
  });

  it('knows the reason phrase of 429 for rate limits', () => {
    expect(REASON_PHRASES[429]).toBe('Too Many Requests');
  });
});

describe('errors.tooManyRequests', () => {
  it('says when to retry, in seconds, and sends it as Retry-After beside the given headers', () => {
    const one = errors.tooManyRequests(1, { RateLimit: 'limit=10, remaining=0, reset=1' });
    expect(one.toBody()).toEqual({ error: 'Too Many Requests', message: 'Too many requests; retry after 1 second' });
    expect(one.headers).toEqual({ RateLimit: 'limit=10, remaining=0, reset=1', 'Retry-After': '1' });
    expect(errors.tooManyRequests(2).toBody().message).toBe('Too many requests; retry after 2 seconds');
  });
});
