import { describe, expect, it } from 'vitest';
import { mountPoint } from './base-url.js';

describe('mountPoint', () => {
  it('mounts on any origin by default', () => {
    const { pattern, basePath } = mountPoint('*');
    expect(basePath).toBe('');
    expect(pattern.test('http://a.test/api/customers')).toBe(true);
    expect(pattern.test('https://b.test:8443/api/customers/1')).toBe(true);
  });

  it('mounts on an origin, with or without a trailing slash', () => {
    for (const base of ['http://127.0.0.1:3000', 'http://127.0.0.1:3000/']) {
      const { pattern, basePath } = mountPoint(base);
      expect(basePath).toBe('');
      expect(pattern.test('http://127.0.0.1:3000/api/customers')).toBe(true);
      expect(pattern.test('http://127.0.0.1:3000/api/customers/1')).toBe(true);
      expect(pattern.test('http://127.0.0.1:3001/api/customers/1')).toBe(false);
      expect(pattern.test('http://127.0.0.1:3000/api/customersX')).toBe(false);
    }
  });

  it('matches item paths without decoding them (broken percent-encoding is the API\'s 404, not a throw)', () => {
    const { pattern } = mountPoint('http://127.0.0.1:3000');
    expect(pattern.test('http://127.0.0.1:3000/api/customers/%E0%A4%A')).toBe(true);
    // The trailing slash is core's 404 (no route), as on the server and the HTTP mock, not a request MSW lets through.
    expect(pattern.test('http://127.0.0.1:3000/api/customers/')).toBe(true);
    expect(pattern.source).not.toMatch(/\((?!\?:)/); // no capture group for MSW to decode
  });

  it('mounts every collection of core\'s operation table, and nothing beside them', () => {
    const { pattern } = mountPoint('http://127.0.0.1:3000');
    expect(pattern.test('http://127.0.0.1:3000/api/webhook_endpoints')).toBe(true);
    expect(pattern.test('http://127.0.0.1:3000/api/webhook_endpoints/1/replay')).toBe(true);
    expect(pattern.test('http://127.0.0.1:3000/api/events/evt_1')).toBe(true);
    expect(pattern.test('http://127.0.0.1:3000/api/eventsX')).toBe(false);
    expect(pattern.test('http://127.0.0.1:3000/api/other')).toBe(false);
  });

  it('keeps a path prefix to strip before routing', () => {
    expect(mountPoint('https://api.example.test/v1/').basePath).toBe('/v1');
  });
});
