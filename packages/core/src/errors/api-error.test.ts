import { expect, it } from 'vitest';
import { ApiError, isApiError } from './api-error.js';

/** An ApiError as a second copy of core (another bundle on the same page) would build it. */
function foreignApiError(overrides: Record<string, unknown> = {}): Error {
  const error = Object.assign(new Error('Customer not found'), { status: 404, toBody: () => ({}) }, overrides);
  error.name = (overrides.name as string | undefined) ?? 'ApiError';
  return error;
}

it('recognises its own ApiError and one from a second copy of core by shape', () => {
  expect(isApiError(new ApiError(404, 'Customer not found'))).toBe(true);
  expect(isApiError(foreignApiError())).toBe(true);
});

it('does not take other errors or plain objects for an ApiError', () => {
  expect(isApiError(foreignApiError({ name: 'TypeError' }))).toBe(false);
  expect(isApiError(foreignApiError({ status: '404' }))).toBe(false);
  expect(isApiError(foreignApiError({ toBody: 'not a function' }))).toBe(false);
  expect(isApiError({ name: 'ApiError', message: 'x', status: 404, toBody: () => ({}) })).toBe(false);
  expect(isApiError(new Error('plain'))).toBe(false);
  expect(isApiError(undefined)).toBe(false);
});

it('has a name, the status, its extra headers and a body of exactly error and message', () => {
  const error = new ApiError(405, 'Method PUT is not allowed here; use POST', { Allow: 'POST' });
  expect(error.name).toBe('ApiError');
  expect(error.headers).toEqual({ Allow: 'POST' });
  expect(new ApiError(400, 'x').headers).toEqual({});
  expect(error.toBody()).toEqual({ error: 'Method Not Allowed', message: 'Method PUT is not allowed here; use POST' });
});
