import { describe, expect, it } from 'vitest';
import { pathBelow, targetBelow, toApiRequest } from './adapt-request.js';

describe('toApiRequest', () => {
  it('passes method, path below the base path, headers and raw bytes', async () => {
    const request = new Request('https://api.example.test/v1/api/customers?x=1', {
      method: 'POST',
      headers: { 'X-API-Key': 'k', 'Content-Type': 'application/json' },
      body: '{"a":"é"}',
    });
    const adapted = await toApiRequest(request, '/v1');
    expect(adapted.method).toBe('POST');
    expect(adapted.path).toBe('/api/customers');
    expect(adapted.query).toBe('x=1');
    expect(adapted.header('x-api-key')).toBe('k');
    expect(new TextDecoder().decode(adapted.body!)).toBe('{"a":"é"}');
    expect(adapted.body!.byteLength).toBe(10); // bytes, not characters: the 64 KiB limit counts bytes
  });

  it('gives no body for a GET', async () => {
    const adapted = await toApiRequest(new Request('http://x.test/api/customers/1'), '');
    expect(adapted.body).toBeNull();
    expect(adapted.path).toBe('/api/customers/1');
    expect(adapted.query).toBe('');
  });

  it('keeps the whole path when it is not below the base path', () => {
    expect(pathBelow('http://x.test/api/customers', '/v1')).toBe('/api/customers');
    expect(pathBelow('http://x.test/v1/api/customers/7?a=b', '/v1')).toBe('/api/customers/7');
  });

  it('splits the raw query string off as core reads it (nothing decoded)', () => {
    expect(targetBelow(new URL('http://x.test/v1/api/customers?email=ada%40example.com&limit=20'), '/v1')).toEqual({
      path: '/api/customers',
      query: 'email=ada%40example.com&limit=20',
    });
    expect(targetBelow('http://x.test/api/customers?', '')).toEqual({ path: '/api/customers', query: '' });
  });
});
