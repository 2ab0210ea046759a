import { describe, expect, it } from 'vitest';
import { limiterAddress } from './client-address.js';

describe('limiterAddress', () => {
  it('keeps IPv4 addresses, and judges IPv4-mapped IPv6 by the IPv4 part', () => {
    expect(limiterAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(limiterAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(limiterAddress('::ffff:cb00:7107')).toBe('203.0.113.7');
  });
  it('groups IPv6 addresses by their /64, however they are written', () => {
    expect(limiterAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(limiterAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limiterAddress('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(limiterAddress('::1')).toBe('0:0:0:0::/64');
    expect(limiterAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limiterAddress('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
  });
  it('leaves anything that is not an address as it is', () => {
    expect(limiterAddress('unknown')).toBe('unknown');
  });
});
