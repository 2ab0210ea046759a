import { describe, expect, it } from 'vitest';
import { mountPoint } from './base-url.js';

describe('mountPoint', () => {
  it('mounts on any origin by default', () => {
    expect(mountPoint('*')).toEqual({ collection: '*/api/customers', items: '*/api/customers/*', basePath: '' });
  });

  it('mounts on an origin, with or without a trailing slash', () => {
    for (const base of ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/']) {
      expect(mountPoint(base)).toEqual({
        collection: 'http://127.0.0.1:3000/api/customers',
        items: 'http://127.0.0.1:3000/api/customers/*',
        basePath: '',
      });
    }
  });

  it('keeps a path prefix to strip before routing', () => {
    expect(mountPoint('https://api.example.test/v1/').basePath).toBe('/v1');
  });
});
