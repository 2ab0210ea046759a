import { describe, expect, it } from 'vitest';
import { limiterAddress } from './failed-authentication.js';

describe('limiterAddress: IPv4-mapped addresses, and only those', () => {
  it('reads the IPv4 part of a mapped address however its zeros are written', () => {
    expect(limiterAddress('0:0::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(limiterAddress('0:0:0:0:0:ffff:c000:201')).toBe('192.0.2.1');
  });

  it('counts an address with ffff in the sixth group but another group set before it by its /64', () => {
    expect(limiterAddress('1::ffff:c000:201')).toBe('1:0:0:0::/64');
    expect(limiterAddress('0:0:0:0:1:ffff:c000:201')).toBe('0:0:0:0::/64');
  });
});
