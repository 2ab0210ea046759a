import { describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '@customers-api/core';
import { parsePrefer, preferredAnswer } from './prefer.js';
import { loadSpecExamples } from './spec-examples.js';

const examples = loadSpecExamples();
const header = (values: Record<string, string> = {}) => (name: string) => values[name.toLowerCase()];

describe('parsePrefer', () => {
  it('reads code and example, ignoring other preferences', () => {
    expect(parsePrefer('code=404')).toEqual({ code: 404 });
    expect(parsePrefer('code=503, example="x"; dynamic=true')).toEqual({ code: 503, example: 'x' });
    expect(parsePrefer('return=minimal')).toBeUndefined();
    expect(parsePrefer(undefined)).toBeUndefined();
    expect(() => parsePrefer('code=abc')).toThrow('Prefer: code=abc must be a 3-digit HTTP status');
  });
});

describe('preferredAnswer', () => {
  it('forces an error status as the server words it', () => {
    expect(preferredAnswer('getCustomer', { code: 404 }, examples, header())).toEqual({ forced: { status: 404 } });
    expect(preferredAnswer('getCustomer', { code: 503 }, examples, header())).toEqual({ forced: { status: 503 } });
  });

  it("answers a success code or a named example from openapi.yaml's examples", () => {
    const found = preferredAnswer('getCustomer', { code: 200 }, examples, header({ 'x-request-id': 'r1' }));
    expect(found).toEqual({ response: { status: 200, headers: { 'X-Request-Id': 'r1', 'Customers-Version': LATEST_API_VERSION }, body: expect.objectContaining({ first_name: 'Ada' }) } });
    const created = preferredAnswer('createCustomer', { example: 'created' }, examples, header());
    expect('response' in created && created.response.headers.Location).toMatch(/^\/api\/customers\/[0-9a-f-]{36}$/);
    expect(preferredAnswer('deleteCustomer', { code: 204 }, examples, header())).toEqual({ response: { status: 204, headers: { 'X-Request-Id': expect.any(String), 'Customers-Version': LATEST_API_VERSION }, body: undefined } });
    expect(preferredAnswer('createCustomer', { example: 'tooLong' }, examples, header())).toEqual({
      forced: { status: 400, message: 'first_name must be at most 100 characters' },
    });
  });

  it('refuses what the operation does not document, naming what it does', () => {
    expect(() => preferredAnswer('getCustomer', { code: 299 }, examples, header())).toThrow('Prefer: code=299 cannot be answered for getCustomer; use one of the codes 200, 400, 401, 403, 404, 408, 409, 413, 415, 429, 500, 502, 503, 504');
    expect(() => preferredAnswer('getCustomer', { example: 'nope' }, examples, header())).toThrow('Prefer: example=nope is not an example of getCustomer; use one of found, unknownVersion, missingKey, invalidKey, missingScope, notFound, tooManyRequests, fault, databaseUnavailable');
    expect(() => preferredAnswer('getCustomer', { code: 404, example: 'found' }, examples, header())).toThrow('use one of notFound');
  });
});
