import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../core/errors';
import { abortText, describeError, errorBody, hintFor, logLine, toArrayLimitText, withCallerFrames } from './error-hints';

// The texts of the lazily loaded failure chunk, as a caller reads them in an error or a log line.

describe('hintFor and describeError', () => {
  it('gives each status its own advice, any other 5xx the server one, anything else the bare status', () => {
    expect(hintFor(409)).toBe('Use another email address, or update the customer that already has it.');
    expect(hintFor(500)).toBe('The server failed; retrying later may help.');
    expect(hintFor(599)).toBe('The server failed; retrying later may help.');
    expect(hintFor(499)).toBe('Unexpected status 499.');
    expect(hintFor(302)).toBe('Unexpected status 302.');
  });

  it('writes status, reason, detail, hint and request id in that order', () => {
    expect(describeError(409, { error: 'Conflict', message: 'email: taken' }, 'req_1')).toEqual({
      body: { error: 'Conflict', message: 'email: taken' },
      message:
        '409 Conflict: email: taken. Use another email address, or update the customer that already has it. ' +
        '(request id req_1; quote it when reporting a problem)',
    });
    expect(describeError(409, { error: 'Conflict', message: 'email: taken' }, '').message).toBe(
      '409 Conflict: email: taken. Use another email address, or update the customer that already has it.',
    );
  });

  it("says 'no details' for an empty body and keeps the API's own 404 advice for a missing customer", () => {
    expect(describeError(500, undefined, undefined)).toEqual({ body: '', message: '500: no details. The server failed; retrying later may help.' });
    expect(describeError(404, { error: 'Not Found', message: 'Customer not found' }, undefined).message).toBe(
      '404 Not Found: Customer not found. Check the customer id: deleted customers and customers of other seller accounts are not found.',
    );
    expect(describeError(404, { error: 'Not Found', message: 'Customer not found. No route matches' }, undefined).message).toMatch(/Check the customer id/);
    expect(describeError(405, '<html>', undefined).message).toBe('405: <html>. Unexpected status 405.');
  });

  it('keeps an API error body as it is, text as text, and other JSON as its text', () => {
    const body = { error: 'Bad Request', message: 'x', extra: 1 };
    expect(errorBody(body)).toBe(body);
    expect(errorBody('plain')).toBe('plain');
    expect(errorBody(0)).toBe('0');
    expect(errorBody(false)).toBe('false');
    expect(errorBody(undefined)).toBe('');
    expect(errorBody({ error: 'Bad Request' })).toBe('{"error":"Bad Request"}');
    expect(errorBody({ message: 'x' })).toBe('{"message":"x"}');
  });
});

describe('abortText and toArrayLimitText', () => {
  it('tells a deadline from an abort', () => {
    expect(abortText(true)).toBe('The call ran past the deadline of its AbortSignal (AbortSignal.timeout()); it was not retried.');
    expect(abortText(false)).toBe('The request was aborted by the caller (its AbortSignal fired); it was not retried.');
  });

  it('tells a missing limit from a wrong one, naming the range', () => {
    expect(toArrayLimitText(undefined, 10_000)).toBe(
      'toArray: a limit is required, such as toArray({ limit: 500 }) (1 to 10000); use for await...of to walk every page.',
    );
    expect(toArrayLimitText(0, 10_000)).toBe('toArray: limit must be an integer from 1 to 10000, got 0.');
    expect(toArrayLimitText(null, 5)).toBe('toArray: limit must be an integer from 1 to 5, got null.');
  });
});

describe('logLine', () => {
  it('writes level, type, method and URL, then the rest as JSON', () => {
    const line = logLine({ type: 'retry', method: 'GET', url: 'http://h/api/customers', attempt: 1, delayMs: 500, reason: 'status 503' }, 'warn');
    expect(line).toBe('[customers-api] warn retry GET http://h/api/customers {"attempt":1,"delayMs":500,"reason":"status 503"}');
  });

  it("writes an error as its name and message", () => {
    const error = new ConnectionError('GET http://h failed without a response', {});
    const line = logLine({ type: 'error', method: 'GET', url: 'http://h', attempt: 2, error }, 'error');
    expect(line).toBe('[customers-api] error error GET http://h {"attempt":2,"error":"ConnectionError: GET http://h failed without a response"}');
  });
});

describe('withCallerFrames', () => {
  const call = (): Error => {
    const e = new Error('call');
    e.stack = 'Error: call\n    at caller (app.js:1:1)\n    at main (app.js:2:1)';
    return e;
  };

  it("appends the call's frames below the error's own, without the call's first line", () => {
    const error = new Error('boom');
    error.stack = 'Error: boom\n    at sdk (client.js:9:9)';
    expect(withCallerFrames(error, call())).toBe(error);
    expect(error.stack).toBe('Error: boom\n    at sdk (client.js:9:9)\n    ... called from:\n    at caller (app.js:1:1)\n    at main (app.js:2:1)');
  });

  it('leaves alone what is not an Error, an Error without a stack, a call without frames, and a frozen error', () => {
    expect(withCallerFrames('text', call())).toBe('text');
    const noStack = new Error('x');
    noStack.stack = undefined;
    withCallerFrames(noStack, call());
    expect(noStack.stack).toBeUndefined();
    const plain = new Error('y');
    plain.stack = 'Error: y';
    const bare = new Error('call');
    bare.stack = 'Error: call';
    withCallerFrames(plain, bare);
    expect(plain.stack).toBe('Error: y');
    const noCallStack = new Error('call');
    noCallStack.stack = undefined;
    withCallerFrames(plain, noCallStack);
    expect(plain.stack).toBe('Error: y');
    const frozen = Object.freeze(Object.assign(new Error('z'), { stack: 'Error: z' }));
    expect(withCallerFrames(frozen, call())).toBe(frozen);
    expect(frozen.stack).toBe('Error: z');
  });
});
