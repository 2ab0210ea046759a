import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which a client address's failed authentications are counted: an IPv4 address as is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 (`2001:db8:1:2::/64`), since one host or
 * home router gets a whole /64 and could otherwise take a fresh budget per address.
 *
 * @example
 * limiterAddress('2001:db8:1:2::7'); // '2001:db8:1:2::/64'
 * limiterAddress('::ffff:192.0.2.1'); // '192.0.2.1'
 */
export function limiterAddress(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names the interface, not the client
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split in two). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!isIPv4(group)) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}
