import { MESSAGES } from '../errors/registry.js';
import { describe, expect, it } from 'vitest';
import { forcedError } from './forced-error.js';

const context = { requestId: 'req_1', customerLimit: 100 };

describe('forcedError', () => {
  it("words the API's own statuses as core's registry does", () => {
    expect(forcedError(500, context)).toEqual({
      status: 500,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1' },
      body: { error: 'Internal Server Error', message: MESSAGES.internal },
    });
    expect(forcedError(403, { ...context, customerLimit: 1 }).body).toEqual({
      error: 'Forbidden',
      message: 'Customer limit reached; your subscription plan allows 1 customer',
    });
    expect(forcedError(404, context).body).toEqual({ error: 'Not Found', message: 'Customer not found' });
    expect(forcedError(409, { ...context, email: 'ada@example.com' }).body).toEqual({
      error: 'Conflict',
      message: 'A customer with email ada@example.com already exists',
    });
    expect(forcedError(413, context).body).toEqual({
      error: 'Payload Too Large',
      message: 'Request body must be at most 65536 bytes',
    });
  });

  it('keeps the headers a status calls for and adds the caller’s', () => {
    const response = forcedError(401, { ...context, headers: { 'X-Extra': 'yes' } });
    expect(response.headers).toMatchObject({ 'WWW-Authenticate': 'Bearer', 'X-Extra': 'yes', 'X-Request-Id': 'req_1' });
    expect(response.body).toEqual({ error: 'Unauthorized', message: MESSAGES.apiKeyInvalid });
  });

  it('answers gateway statuses in the same shape, with Retry-After when asked', () => {
    const response = forcedError(503, { ...context, headers: { 'Retry-After': '1' } });
    expect(response.status).toBe(503);
    expect(response.headers['Retry-After']).toBe('1');
    expect(response.body).toEqual({
      error: 'Service Unavailable',
      message: 'The service is temporarily unavailable; retry later',
    });
    expect(forcedError(429, context).body).toMatchObject({ error: 'Too Many Requests' });
  });

  it('takes a message of the caller’s own', () => {
    expect(forcedError(400, { ...context, message: 'first_name is required' }).body).toEqual({
      error: 'Bad Request',
      message: 'first_name is required',
    });
  });

  it('words a 400 as a body that is not a JSON object, and a 409 without an email', () => {
    expect(forcedError(400, context).body).toEqual({ error: 'Bad Request', message: 'body must be a JSON object' });
    expect(forcedError(409, context).body).toEqual({
      error: 'Conflict',
      message: 'A customer with email (none in the request body) already exists',
    });
  });

  it('still answers `{ error, message }` for a status outside its tables (an untyped caller)', () => {
    expect(forcedError(418 as never, context)).toEqual({
      status: 418,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1' },
      body: { error: 'Error', message: 'HTTP 418' },
    });
  });
});

describe('a forced 400', () => {
  it('is worded as a query parameter problem on listCustomers, as the server words a 400 there', () => {
    expect(forcedError(400, { ...context, operation: 'listCustomers' }).body).toEqual({
      error: 'Bad Request',
      message: 'limit must be at least 1',
    });
    expect(forcedError(400, { ...context, operation: 'createCustomer' }).body).toEqual({
      error: 'Bad Request',
      message: 'body must be a JSON object',
    });
  });
});
