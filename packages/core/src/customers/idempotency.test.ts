import { describe, expect, it } from 'vitest';
import { fingerprintBody, idempotencyRecord } from './idempotency.js';

describe('fingerprintBody', () => {
  it('matches the same JSON value in any key order, and only that', async () => {
    const a = await fingerprintBody({ first_name: 'Ada', address_data: { city: 'X', street: 'Y' } });
    const b = await fingerprintBody({ address_data: { street: 'Y', city: 'X' }, first_name: 'Ada' });
    expect(a).toBe(b);
    expect(await fingerprintBody({ first_name: 'Ada', address_data: null })).not.toBe(a);
    expect(await fingerprintBody({ first_name: 'Ada ' })).not.toBe(await fingerprintBody({ first_name: 'Ada' }));
  });

  it('records an expiry 24 hours after now', async () => {
    const record = await idempotencyRecord('k', {}, '2026-11-25T09:30:00.000Z');
    expect(record).toMatchObject({ key: 'k', expiresAt: '2026-11-26T09:30:00.000Z' });
  });
});
