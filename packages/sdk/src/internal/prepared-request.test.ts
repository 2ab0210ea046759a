import { describe, expect, it } from 'vitest';
import { PreparedRequest } from './prepared-request';

describe('PreparedRequest', () => {
  it('defaults like a WHATWG Request: GET, no headers, no body', () => {
    const request = new PreparedRequest('http://127.0.0.1:3000/api/customers');
    expect(request.url).toBe('http://127.0.0.1:3000/api/customers');
    expect(request.method).toBe('GET');
    expect([...request.headers]).toEqual([]);
    expect(request.body).toBeUndefined();
  });

  it('keeps what openapi-fetch gives it, reusing a Headers object as is', () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    const request = new PreparedRequest('http://x/api/customers', { method: 'POST', headers, body: '{}' });
    expect(request.method).toBe('POST');
    expect(request.headers).toBe(headers);
    expect(request.body).toBe('{}');
    expect(new PreparedRequest('http://x/', { headers: { 'X-A': '1' } }).headers.get('x-a')).toBe('1');
  });
});
