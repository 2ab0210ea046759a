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
