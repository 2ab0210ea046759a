import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../crypto/sha256.js';
import { fingerprintBody, idempotencyRecord } from './idempotency.js';

describe('fingerprintBody', () => {
  it('matches the same JSON value in any key order, and only that', async () => {
    const a = await fingerprintBody({ first_name: 'Ada', address_data: { city: 'X', street: 'Y' } });
    const b = await fingerprintBody({ address_data: { street: 'Y', city: 'X' }, first_name: 'Ada' });
    expect(a).toBe(b);
    expect(await fingerprintBody({ first_name: 'Ada', address_data: null })).not.toBe(a);
    expect(await fingerprintBody({ first_name: 'Ada ' })).not.toBe(await fingerprintBody({ first_name: 'Ada' }));
  });

  // Fingerprints are stored for 24 hours, across deploys: the canonical form is pinned, not just self-consistent.
  it('is SHA-256 of JSON with sorted keys and no spacing; arrays keep their order', async () => {
    const body = { b: 1, a: [1, { d: 2, c: 'x' }], e: null };
    expect(await fingerprintBody(body)).toBe(await sha256Hex('{"a":[1,{"c":"x","d":2}],"b":1,"e":null}'));
    expect(await fingerprintBody({})).toBe(await sha256Hex('{}'));
    expect(await fingerprintBody([])).toBe(await sha256Hex('[]'));
    expect(await fingerprintBody([1, 2])).not.toBe(await fingerprintBody([2, 1]));
  });

  it('records an expiry 24 hours after now', async () => {
    const record = await idempotencyRecord('k', {}, '2026-11-25T09:30:00.000Z');
    expect(record).toMatchObject({ key: 'k', expiresAt: '2026-11-26T09:30:00.000Z' });
  });
});
