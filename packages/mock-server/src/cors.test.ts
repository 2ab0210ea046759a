import { describe, expect, it } from 'vitest';
import { corsHeaders, EXPOSED_HEADERS, isPreflight, preflightHeaders } from './cors.js';

const headers = (values: Record<string, string>) => (name: string) => values[name.toLowerCase()];

describe('CORS', () => {
  it('tells a preflight from a plain OPTIONS (which gets the API answer, 405)', () => {
    expect(isPreflight('OPTIONS', headers({ origin: 'http://a.test', 'access-control-request-method': 'POST' }))).toBe(true);
    expect(isPreflight('OPTIONS', headers({}))).toBe(false);
    expect(isPreflight('OPTIONS', headers({ origin: 'http://a.test' }))).toBe(false);
    expect(isPreflight('GET', headers({ origin: 'http://a.test', 'access-control-request-method': 'POST' }))).toBe(false);
  });

  it('allows any origin by default and exposes the API headers', () => {
    expect(corsHeaders('*', headers({ origin: 'http://a.test' }))).toEqual({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
    expect(corsHeaders('*', headers({}))).toEqual({});
    expect(EXPOSED_HEADERS).toBe('X-Request-Id, Customers-Version, Location, Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy, Deprecation, Sunset, Link');
  });

  it('restricts to the listed origins', () => {
    const only = ['http://a.test'];
    expect(corsHeaders(only, headers({ origin: 'http://a.test' }))['Access-Control-Allow-Origin']).toBe('http://a.test');
    expect(corsHeaders(only, headers({ origin: 'http://b.test' }))).toEqual({ Vary: 'Origin' });
    expect(() => preflightHeaders(only, headers({ origin: 'http://b.test', 'access-control-request-method': 'POST' }))).toThrow(
      'Origin http://b.test is not allowed; the mock allows http://a.test',
    );
  });

  it('answers a preflight with the methods and the requested headers', () => {
    const answer = preflightHeaders('*', headers({ origin: 'http://a.test', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-api-key, content-type' }));
    expect(answer).toMatchObject({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'x-api-key, content-type',
    });
  });
});

describe('CORS for the SDK', () => {
  it("lists the SDK's X-Customers-Sdk-* headers among the allowed ones when a preflight names none", () => {
    const answer = preflightHeaders('*', headers({ origin: 'http://a.test', 'access-control-request-method': 'GET' }));
    for (const name of ['X-Customers-Sdk-Version', 'X-Customers-Sdk-Runtime', 'X-Customers-Sdk-Runtime-Version', 'X-API-Key']) {
      expect(answer['Access-Control-Allow-Headers']!.split(', ')).toContain(name);
    }
  });
});
