import { describe, expect, it } from 'vitest';
import { mountPoint } from './base-url.js';

describe('mountPoint', () => {
  it('mounts on any origin by default', () => {
    expect(mountPoint('*')).toEqual({ collection: '*/api/customers', items: /^.*\/api\/customers\/.+$/, basePath: '' });
  });

  it('mounts on an origin, with or without a trailing slash', () => {
    for (const base of ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/']) {
      expect(mountPoint(base)).toEqual({
        collection: 'http://127.0.0.1:3000/api/customers',
        items: /^http:\/\/127\.0\.0\.1:3000\/api\/customers\/.+$/,
        basePath: '',
      });
    }
  });

  it('matches item paths without decoding them (broken percent-encoding is the API\'s 404, not a throw)', () => {
    const { items } = mountPoint('http://127.0.0.1:3000');
    expect(items.test('http://127.0.0.1:3000/api/customers/%E0%A4%A')).toBe(true);
    expect(items.test('http://127.0.0.1:3000/api/customers/')).toBe(false);
    expect(items.test('http://127.0.0.1:3001/api/customers/1')).toBe(false);
  });

  it('keeps a path prefix to strip before routing', () => {
    expect(mountPoint('https://api.example.test/v1/').basePath).toBe('/v1');
  });
});
