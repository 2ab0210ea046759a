import { describe, expect, it } from 'vitest';
import { splitRequestTarget } from './request-target.js';

describe('splitRequestTarget', () => {
  it('gives the whole target as the path when there is no query string', () => {
    expect(splitRequestTarget('/api/customers/42')).toEqual({ path: '/api/customers/42', query: '' });
    expect(splitRequestTarget('/')).toEqual({ path: '/', query: '' });
    expect(splitRequestTarget('')).toEqual({ path: '', query: '' });
  });

  it('splits at the first ?, without the ?', () => {
    expect(splitRequestTarget('/api/customers?limit=20&status=active')).toEqual({
      path: '/api/customers',
      query: 'limit=20&status=active',
    });
    // Later ? belong to the query (RFC 3986 allows them there); core's query parser judges them.
    expect(splitRequestTarget('/api/customers?email=a?b')).toEqual({ path: '/api/customers', query: 'email=a?b' });
  });

  it('gives an empty query for a trailing ?', () => {
    expect(splitRequestTarget('/api/customers?')).toEqual({ path: '/api/customers', query: '' });
  });

  it('decodes nothing: percent-encoding and + stay as sent', () => {
    expect(splitRequestTarget('/api/customers/%7Bid%7D?email=ada%40example.com&x=a+b')).toEqual({
      path: '/api/customers/%7Bid%7D',
      query: 'email=ada%40example.com&x=a+b',
    });
  });
});
