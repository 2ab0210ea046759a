import { describe, expect, it } from 'vitest';
import { keyModeOf } from '../auth/api-key.js';
import { isLive, isMode, tenantKey, tenantOf, tenantOfCustomer } from './tenant.js';

// Test mode is a tenancy boundary like a seller: the tenant of a request and of a stored customer, and the one
// string per tenant that maps and cursors are keyed by.
describe('tenants', () => {
  it('a request acts in its key’s mode, live when the host names none', () => {
    expect(tenantOf({ sellerId: 's1' })).toEqual({ sellerId: 's1', mode: 'live' });
    expect(tenantOf({ sellerId: 's1', mode: 'test' })).toEqual({ sellerId: 's1', mode: 'test' });
    expect(keyModeOf({})).toBe('live');
    expect(keyModeOf({ mode: undefined })).toBe('live');
    expect(keyModeOf({ mode: 'test' })).toBe('test');
    expect(keyModeOf({ mode: 'live' })).toBe('live');
  });

  it('a stored customer belongs to its seller, in test mode only when livemode is false', () => {
    expect(tenantOfCustomer({ seller_id: 's1', livemode: false })).toEqual({ sellerId: 's1', mode: 'test' });
    expect(tenantOfCustomer({ seller_id: 's1', livemode: true })).toEqual({ sellerId: 's1', mode: 'live' });
  });

  it('keys a live tenant by the seller id alone (cursors made before test mode stay valid), a test one apart', () => {
    expect(tenantKey({ sellerId: 's1', mode: 'live' })).toBe('s1');
    expect(tenantKey({ sellerId: 's1', mode: 'test' })).toBe('s1:test');
  });

  it('names the modes', () => {
    expect(isLive('live')).toBe(true);
    expect(isLive('test')).toBe(false);
    expect(isMode('live')).toBe(true);
    expect(isMode('test')).toBe(true);
    for (const other of ['', 'LIVE', 'production', undefined, null, 1]) expect(isMode(other)).toBe(false);
  });
});
