import { describe, expect, it } from 'vitest';
import * as errors from './errors';
import {
  AuthenticationError,
  ConnectionError,
  CustomersApiError,
  NotFoundError,
  TimeoutError,
  UserAbortError,
  WebhookVerificationError,
} from './errors';

const classes = Object.entries(errors).filter(([, v]) => typeof v === 'function') as Array<
  [string, typeof CustomersApiError]
>;

describe('error classes', () => {
  it('exports every documented class', () => {
    expect(classes.map(([name]) => name).sort()).toEqual(
      [
        'AuthenticationError',
        'BadRequestError',
        'ConfigurationError',
        'ConflictError',
        'ConnectionError',
        'CustomersApiError',
        'InternalServerError',
        'NotFoundError',
        'PayloadTooLargeError',
        'PermissionDeniedError',
        'RateLimitError',
        'TimeoutError',
        'UnexpectedStatusError',
        'UnsupportedMediaTypeError',
        'UserAbortError',
        'WebhookVerificationError',
      ].sort(),
    );
  });

  it.each(classes)('%s has its own name and kind, and is an Error and a CustomersApiError', (name, Class) => {
    const err = new Class('boom', { status: 418 });
    expect(Class.kind).toBe(name);
    expect(err.name).toBe(name);
    expect(err.message).toBe('boom');
    expect(err.status).toBe(418);
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(CustomersApiError);
    expect(err).toBeInstanceOf(Class);
    expect(String(err.stack)).toContain(name);
  });

  it('WebhookVerificationError carries the reason and the cause, and no response', () => {
    const cause = new SyntaxError('Unexpected end of JSON input');
    const err = new WebhookVerificationError('not JSON', { reason: 'invalid_body', cause });
    expect(err).toMatchObject({ name: 'WebhookVerificationError', message: 'not JSON', reason: 'invalid_body', cause });
    expect([err.status, err.headers, err.body, err.requestId]).toEqual([undefined, undefined, undefined, undefined]);
    expect(err instanceof ConnectionError).toBe(false);
  });

  it('keeps the hierarchy: a timeout is a connection error, a 404 is not a 401', () => {
    const timeout = new TimeoutError('slow');
    expect(timeout instanceof ConnectionError).toBe(true);
    expect(timeout instanceof NotFoundError).toBe(false);
    expect(new NotFoundError('x') instanceof AuthenticationError).toBe(false);
    expect(new ConnectionError('x') instanceof TimeoutError).toBe(false);
    expect(new UserAbortError('x') instanceof ConnectionError).toBe(false);
  });

  it('carries status, requestId, headers, body and cause, and reads error and apiMessage from the body', () => {
    const headers = new Headers({ 'x-request-id': 'req_1' });
    const cause = new Error('root');
    const err = new NotFoundError('404 Not Found', {
      status: 404,
      requestId: 'req_1',
      headers,
      body: { error: 'Not Found', message: 'Customer not found' },
      cause,
    });
    expect(err).toMatchObject({ status: 404, error: 'Not Found', requestId: 'req_1', headers, cause });
    expect(err.apiMessage).toBe('Customer not found');
    expect(err.body).toEqual({ error: 'Not Found', message: 'Customer not found' });
  });

  it('has no error or apiMessage when the body is text (a proxy page) or absent', () => {
    const proxied = new NotFoundError('404', { status: 404, body: '<html>Not Found</html>', headers: new Headers() });
    expect([proxied.error, proxied.apiMessage, proxied.body]).toEqual([undefined, undefined, '<html>Not Found</html>']);
    const offline = new ConnectionError('down');
    expect([offline.status, offline.error, offline.apiMessage, offline.headers, offline.body]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('recognises errors from another copy of the SDK by their Symbol.for brand', () => {
    // What an error thrown by the other build (ESM vs CJS) looks like from here.
    const foreign = Object.assign(Object.create(Error.prototype), {
      [Symbol.for('@customers-api/sdk.error-kinds')]: ['NotFoundError', 'CustomersApiError'],
    });
    expect(foreign instanceof NotFoundError).toBe(true);
    expect(foreign instanceof CustomersApiError).toBe(true);
    expect(foreign instanceof AuthenticationError).toBe(false);
  });

  it('does not match unrelated values', () => {
    expect(new Error('plain') instanceof CustomersApiError).toBe(false);
    expect((null as unknown) instanceof CustomersApiError).toBe(false);
    expect(('NotFoundError' as unknown) instanceof NotFoundError).toBe(false);
    expect({ status: 404 } instanceof NotFoundError).toBe(false);
  });

  it('lets callers subclass an error class', () => {
    class MyNotFound extends NotFoundError {}
    const err = new MyNotFound('x');
    expect(err instanceof MyNotFound).toBe(true);
    expect(err instanceof NotFoundError).toBe(true);
    expect(new NotFoundError('x') instanceof MyNotFound).toBe(false);
  });
});
