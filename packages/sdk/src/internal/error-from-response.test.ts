import { describe, expect, it } from 'vitest';
import * as errors from '../core/errors';
import { errorFromResponse } from './error-from-response';
import { describeError } from './error-hints';
import { requestIdOf } from './headers';

/** The error the client builds for this response, with the message the lazily loaded module makes. */
function errorOf(status: number, parsed: unknown, headers: Headers) {
  const requestId = requestIdOf(headers);
  return errorFromResponse(status, headers, requestId, describeError(status, parsed, requestId));
}

const headers = new Headers({ 'x-request-id': 'req_42' });

describe('errorFromResponse', () => {
  it.each([
    [400, 'Bad Request', 'BadRequestError', 'names the failing property'],
    [401, 'Unauthorized', 'AuthenticationError', 'Settings, then API Keys'],
    [403, 'Forbidden', 'PermissionDeniedError', 'customer limit'],
    [404, 'Not Found', 'NotFoundError', 'Check the customer id'],
    [409, 'Conflict', 'ConflictError', 'another email address'],
    [413, 'Payload Too Large', 'PayloadTooLargeError', '64 KiB'],
    [415, 'Unsupported Media Type', 'UnsupportedMediaTypeError', 'application/json'],
    [429, 'Too Many Requests', 'RateLimitError', 'slow down'],
    [500, 'Internal Server Error', 'InternalServerError', 'server failed'],
    [502, 'Bad Gateway', 'InternalServerError', 'server failed'],
    [503, 'Service Unavailable', 'InternalServerError', 'server failed'],
    [408, 'Request Timeout', 'UnexpectedStatusError', 'Unexpected status 408'],
    [422, 'Unprocessable Entity', 'UnexpectedStatusError', 'Unexpected status 422'],
    [418, "I'm a teapot", 'UnexpectedStatusError', 'Unexpected status 418'],
  ] as const)('%i becomes %s-class %s with a hint', (status, reason, className, hint) => {
    const err = errorOf(status, { error: reason, message: 'the detail' }, headers);
    const Class = errors[className];
    expect(err).toBeInstanceOf(Class);
    expect(err.name).toBe(className);
    expect(err.status).toBe(status);
    expect(err.error).toBe(reason);
    expect(err.apiMessage).toBe('the detail');
    expect(err.requestId).toBe('req_42');
    expect(err.headers).toBe(headers);
    expect(err.body).toEqual({ error: reason, message: 'the detail' });
    expect(err.message).toContain(`${status} ${reason}: the detail.`);
    expect(err.message).toContain(hint);
    expect(err.message).toContain('request id req_42');
  });

  it('copes with a body that is not the API error shape (a proxy page)', () => {
    const err = errorOf(502, '<html>bad gateway</html>', new Headers());
    expect(err).toBeInstanceOf(errors.InternalServerError);
    expect(err.error).toBeUndefined();
    expect(err.requestId).toBeUndefined();
    expect(err.apiMessage).toBeUndefined();
    expect(err.body).toBe('<html>bad gateway</html>');
    expect(err.message).toBe('502: <html>bad gateway</html>. The server failed; retrying later may help.');
  });

  it('keeps JSON that is not the API error shape as its text, so body is never unknown', () => {
    const err = errorOf(422, { detail: ['x'] }, new Headers());
    expect(err.body).toBe('{"detail":["x"]}');
    expect(err.error).toBeUndefined();
    expect(errorOf(400, { error: 'Bad Request' }, new Headers()).body).toBe('{"error":"Bad Request"}');
  });

  it('copes with an empty body', () => {
    const err = errorOf(404, undefined, new Headers());
    expect(err).toBeInstanceOf(errors.NotFoundError);
    expect(err.body).toBe('');
    expect(err.message).toMatch(/^404: no details\. No such route: check the baseUrl option/);
  });

  it("points a 404 without a customer at the base URL: the API's no-route answer, or another server's page", () => {
    const wrongPath = errorOf(404, { error: 'Not Found', message: 'No route matches /v1/customers/42' }, headers);
    expect(wrongPath).toBeInstanceOf(errors.NotFoundError);
    expect(wrongPath.message).toBe(
      '404 Not Found: No route matches /v1/customers/42. No such route: check the baseUrl option (or CUSTOMERS_API_BASE_URL); ' +
        'it is the origin (and any prefix) before /api/customers. (request id req_42; quote it when reporting a problem)',
    );
    expect(wrongPath.message).not.toMatch(/customer id/);
    expect(errorOf(404, '<html>Not Found</html>', headers).message).toMatch(/No such route: check the baseUrl option/);
    expect(errorOf(404, { error: 'Not Found', message: 'Customer not found' }, headers).message).toMatch(/Check the customer id/);
  });
});
