import { describe, expect, it } from 'vitest';
import { isPublicAddress, webhookUrlProblem } from './webhook-url.js';

// The IANA special-purpose ranges the rule refuses, each stated by its first and last address and the
// addresses just outside it (left out where another refused range starts there).
interface Range {
  range: string;
  first: string;
  last: string;
  /** The address just below `first`, when it is public. */
  before?: string;
  /** The address just above `last`, when it is public. */
  after?: string;
}

const V4_RANGES: Range[] = [
  { range: '0.0.0.0/8 "this network"', first: '0.0.0.0', last: '0.255.255.255', after: '1.0.0.0' },
  { range: '10.0.0.0/8 private', first: '10.0.0.0', last: '10.255.255.255', before: '9.255.255.255', after: '11.0.0.0' },
  { range: '100.64.0.0/10 carrier-grade NAT', first: '100.64.0.0', last: '100.127.255.255', before: '100.63.255.255', after: '100.128.0.0' },
  { range: '127.0.0.0/8 loopback', first: '127.0.0.0', last: '127.255.255.255', before: '126.255.255.255', after: '128.0.0.0' },
  { range: '169.254.0.0/16 link-local', first: '169.254.0.0', last: '169.254.255.255', before: '169.253.255.255', after: '169.255.0.0' },
  { range: '172.16.0.0/12 private', first: '172.16.0.0', last: '172.31.255.255', before: '172.15.255.255', after: '172.32.0.0' },
  { range: '192.0.0.0/24 IETF protocol assignments', first: '192.0.0.0', last: '192.0.0.255', before: '191.255.255.255', after: '192.0.1.0' },
  { range: '192.0.2.0/24 documentation', first: '192.0.2.0', last: '192.0.2.255', before: '192.0.1.255', after: '192.0.3.0' },
  { range: '192.88.99.0/24 6to4 relay anycast', first: '192.88.99.0', last: '192.88.99.255', before: '192.88.98.255', after: '192.88.100.0' },
  { range: '192.168.0.0/16 private', first: '192.168.0.0', last: '192.168.255.255', before: '192.167.255.255', after: '192.169.0.0' },
  { range: '198.18.0.0/15 benchmarking', first: '198.18.0.0', last: '198.19.255.255', before: '198.17.255.255', after: '198.20.0.0' },
  { range: '198.51.100.0/24 documentation', first: '198.51.100.0', last: '198.51.100.255', before: '198.51.99.255', after: '198.51.101.0' },
  { range: '203.0.113.0/24 documentation', first: '203.0.113.0', last: '203.0.113.255', before: '203.0.112.255', after: '203.0.114.0' },
  { range: '224.0.0.0/4 multicast', first: '224.0.0.0', last: '239.255.255.255', before: '223.255.255.255' },
  { range: '240.0.0.0/4 reserved and broadcast', first: '240.0.0.0', last: '255.255.255.255' },
];

/** The IPv4 address as the last 32 bits of an IPv6 one, in hex groups (`10.0.0.1` → `a00:1`). */
function hexTail(v4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** An IPv4 address in every IPv6 form that embeds it: mapped (dotted and hex) and NAT64 (RFC 6052). */
const embeddings = (v4: string) => [`::ffff:${v4}`, `::ffff:${hexTail(v4)}`, `[::ffff:${v4}]`, `64:ff9b::${v4}`, `64:ff9b::${hexTail(v4)}`];

describe.each(V4_RANGES)('IPv4 $range', ({ first, last, before, after }) => {
  it('refuses its first and last address, also embedded in IPv6', () => {
    for (const address of [first, last, ...embeddings(first), ...embeddings(last)]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts the addresses just outside it, also embedded in IPv6', () => {
    for (const address of [before, after].filter((a) => a !== undefined).flatMap((a) => [a, ...embeddings(a)])) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

// Around fc00::/7, fe80::/10, fec0::/10 and ff00::/8 lies fe00::/9 (IETF-reserved): the rule says nothing of it, so
// neither does this table.
const V6_RANGES: Range[] = [
  { range: '::/128 unspecified', first: '::', last: '::' },
  { range: '::1/128 loopback', first: '::1', last: '::1' },
  { range: '::/96 IPv4-compatible (deprecated)', first: '::', last: '::ffff:ffff', after: '::1:0:0' },
  { range: '::ffff:0:0/96 IPv4-mapped', first: '::ffff:0:0', last: '::ffff:ffff:ffff', before: '::fffe:ffff:ffff', after: '::1:0:0:0' },
  { range: '::ffff:0:0:0/96 IPv4-translated (RFC 2765)', first: '::ffff:0:0:0', last: '::ffff:0:ffff:ffff', before: '::fffe:ffff:ffff:ffff', after: '::ffff:1:0:0' },
  { range: '64:ff9b::/96 NAT64', first: '64:ff9b::', last: '64:ff9b::ffff:ffff', before: '64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', after: '64:ff9b::1:0:0' },
  { range: '64:ff9b:1::/48 local-use NAT64', first: '64:ff9b:1::', last: '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', before: '64:ff9b:0:ffff:ffff:ffff:ffff:ffff', after: '64:ff9b:2::' },
  { range: '3fff::/20 documentation', first: '3fff::', last: '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', before: '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', after: '3fff:1000::' },
  { range: '5f00::/16 SRv6 segment identifiers', first: '5f00::', last: '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', before: '5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', after: '5f01::' },
  { range: '100::/64 discard-only', first: '100::', last: '100::ffff:ffff:ffff:ffff', before: 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', after: '100:0:0:1::' },
  { range: '2001::/23 IETF protocol assignments (Teredo among them)', first: '2001::', last: '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', before: '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', after: '2001:200::' },
  { range: '2001:db8::/32 documentation', first: '2001:db8::', last: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', before: '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', after: '2001:db9::' },
  { range: '2002::/16 6to4', first: '2002::', last: '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', before: '2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', after: '2003::' },
  { range: 'fc00::/7 unique local', first: 'fc00::', last: 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', before: 'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' },
  { range: 'fe80::/10 link-local', first: 'fe80::', last: 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff' },
  { range: 'fec0::/10 site-local (deprecated)', first: 'fec0::', last: 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' },
  { range: 'ff00::/8 multicast', first: 'ff00::', last: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff' },
];

describe.each(V6_RANGES)('IPv6 $range', ({ first, last, before, after }) => {
  it('refuses its first and last address, with or without brackets', () => {
    for (const address of [first, last, `[${first}]`, `[${last}]`]) expect(isPublicAddress(address), address).toBe(false);
  });

  it('accepts the addresses just outside it', () => {
    for (const address of [before, after].filter((a) => a !== undefined)) expect(isPublicAddress(address), address).toBe(true);
  });
});

describe('IPv4-translated and IPv4-mapped addresses', () => {
  it.each(['::ffff:0:7f00:1', '::ffff:0:a00:1', '::ffff:0:808:808', '::ffff:0:0.0.0.0', '::ffff:0:8.8.8.8'])(
    '%s is IPv4-translated: refused whatever its IPv4 part',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
  it('judges an IPv4-mapped address by its IPv4 part, as before', () => {
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:808:808')).toBe(true);
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false);
  });
});

describe('what counts as an address', () => {
  it.each([
    '2606:4700:4700:0:0:0:0:1111', // all eight groups written out
    '2606:4700:4700::', // "::" at the end
    '2606:1:2:3::5:6:7', // seven groups around "::"
  ])('%s is a public IPv6 address', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '1.1.1.1.1', // five parts
    '2606:1:2:3::4:5:6:7', // eight groups and "::" besides
    '2606:12345::1', // a group of five digits
    '2606:x1::1', // a group that is not hex
    '2606::1.2.3.4:', // dotted IPv4 only as the last 32 bits
    '[2606:4700::1111', // a bracket on one side only
    '2606:4700::1111]',
  ])('%j is not an address, so not public', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });

  it.each([
    '2606::1', // ends in 1 like ::1
    '2606:db8::1', // second group of 2001:db8::/32
    '2606:1::1', // second group inside 2001::/23
    '2606:ff9b::a00:1', // second group of 64:ff9b::/96, last 32 bits those of 10.0.0.1
    '64:ff9c::a00:1',
    '2606:4700::a00:1',
    '2a00:ff9b:1::1', // second and third groups of 64:ff9b:1::/48
    '64:1:1::1', // first and third groups of 64:ff9b:1::/48
    '3ffe:fff::1', // 3fff::/20 needs its first group too
    '5f01::1',
  ])('%s is public: a range needs all of its prefix, and the last 32 bits count only in the IPv4 ranges', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('webhookUrlProblem', () => {
  it('refuses a user name alone and a password alone', () => {
    const message = 'url must not contain a user name or password';
    expect(webhookUrlProblem('https://user@example.com/')).toBe(message);
    expect(webhookUrlProblem('https://:secret@example.com/')).toBe(message);
  });

  it('accepts a URL of exactly 2048 characters, and not one more', () => {
    const base = 'https://example.com/';
    const longest = `${base}${'a'.repeat(2048 - base.length)}`;
    expect(longest).toHaveLength(2048);
    expect(webhookUrlProblem(longest)).toBeUndefined();
    expect(webhookUrlProblem(`${longest}a`)).toBe('url must be at most 2048 characters');
  });
});
