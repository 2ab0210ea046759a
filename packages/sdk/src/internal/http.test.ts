import { createFinalURL, createQuerySerializer, defaultPathSerializer } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { partsOf, readBody } from './http';

const BASE = 'http://127.0.0.1:3000';

describe('partsOf (the URL openapi-fetch would build)', () => {
  it('fills the path template with the percent-encoded path parameter', () => {
    const parts = partsOf(BASE, { method: 'GET', path: '/api/customers/{id}', params: { path: { id: 'a/b?c d' } } });
    expect(parts).toEqual({ method: 'GET', url: `${BASE}/api/customers/a%2Fb%3Fc%20d`, headers: undefined, body: undefined });
  });

  it('makes the same URL as openapi-fetch (createFinalURL) for ids with reserved, dollar and non-ASCII characters', () => {
    const querySerializer = createQuerySerializer();
    for (const id of ['3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61', 'a/b?c d', '$&$1$$', '{id}', '%2F', 'é ü 😀', '']) {
      const params = { path: { id } };
      const expected = createFinalURL('/api/customers/{id}', { baseUrl: BASE, params, querySerializer, pathSerializer: defaultPathSerializer });
      expect(partsOf(BASE, { method: 'GET', path: '/api/customers/{id}', params }).url).toBe(expected);
    }
  });

  it('leaves the template of a path parameter that is undefined, as openapi-fetch does', () => {
    const params = { path: { id: undefined as unknown as string } };
    expect(partsOf(BASE, { method: 'GET', path: '/api/customers/{id}', params }).url).toBe(`${BASE}/api/customers/{id}`);
  });

  it('appends the defined query parameters in order, values percent-encoded, undefined ones left out', () => {
    const { url } = partsOf(BASE, {
      method: 'GET',
      path: '/api/customers',
      params: { query: { email: 'ada+tag@example.com', status: undefined, limit: 1, cursor: 'a&b=c' } },
    });
    expect(url).toBe(`${BASE}/api/customers?email=ada%2Btag%40example.com&limit=1&cursor=a%26b%3Dc`);
  });

  it('writes the query exactly as openapi-fetch\'s createQuerySerializer() does for primitive values', () => {
    const querySerializer = createQuerySerializer();
    const values = ['ada+tag@example.com', 'a&b=c', 'é ü 😀', '2026-11-01T00:00:00.000Z', '', '$1 %2F ?#[]', 0, 1, 100, -1.5, true, false];
    for (const value of values) {
      const query = { limit: 5, cursor: value, status: undefined, email: null };
      const expected = createFinalURL('/api/customers', { baseUrl: BASE, params: { query }, querySerializer, pathSerializer: defaultPathSerializer });
      expect(partsOf(BASE, { method: 'GET', path: '/api/customers', params: { query } } as never).url, String(value)).toBe(expected);
    }
  });

  it('refuses an array or object query value (no operation of the contract has one) rather than write it wrongly', () => {
    for (const cursor of [['a', 'b'], { a: 1 }]) {
      expect(() => partsOf(BASE, { method: 'GET', path: '/api/customers', params: { query: { cursor } } } as never)).toThrow(/arrays\/objects/);
    }
  });

  it('adds no ? for an empty query or no params at all', () => {
    expect(partsOf(BASE, { method: 'GET', path: '/api/customers', params: { query: {} } }).url).toBe(`${BASE}/api/customers`);
    expect(partsOf(BASE, { method: 'GET', path: '/api/customers' }).url).toBe(`${BASE}/api/customers`);
  });

  it("hands over the operation's own headers and the body as given (the request loop serializes it)", () => {
    const body = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
    const parts = partsOf(BASE, { method: 'POST', path: '/api/customers', body, params: { header: { 'Idempotency-Key': 'k-1' } } });
    expect(parts).toEqual({ method: 'POST', url: `${BASE}/api/customers`, headers: { 'Idempotency-Key': 'k-1' }, body });
  });
});

describe('readBody', () => {
  it('is undefined for an empty body, JSON when it parses, the text of an error response that does not', async () => {
    expect(await readBody(new Response(null, { status: 204 }))).toBeUndefined();
    expect(await readBody(new Response('{"a":1}'))).toEqual({ a: 1 });
    expect(await readBody(new Response('<html>bad gateway</html>', { status: 502 }))).toBe('<html>bad gateway</html>');
    await expect(readBody(new Response('<html>', { status: 200 }))).rejects.toThrow(SyntaxError);
  });
});
