import { ApiError, isApiError } from '../errors/api-error.js';
import { errors } from '../errors/registry.js';
import { rateLimitHeaders } from './headers.js';
import type { RateLimiter } from './rate-limiter.js';

/** Failed authentications a client address (an IPv6 /64) may make per window; then its failures are 429s. */
export const FAILED_AUTH_LIMIT = 20;
export const FAILED_AUTH_WINDOW_SECONDS = 60;
/** The `RateLimit-Policy` name of that budget. */
export const FAILED_AUTH_POLICY = 'unauthenticated';

/**
 * Counts a failed authentication of `address` in `limiter` (a budget of {@link FAILED_AUTH_LIMIT} per
 * {@link FAILED_AUTH_WINDOW_SECONDS}): the 401 to send with the budget's rate-limit headers, or a 429 once the
 * address's budget is spent. Any other error passes through unchanged. Only failures are counted and refused: a
 * valid key is answered whatever the address did before (others behind the same address or proxy included).
 *
 * @example
 * try { seller = await authenticate(header, lookupKey); } catch (failure) { throw await limitFailedAuthentication(limiter, ip, failure); }
 */
export async function limitFailedAuthentication(limiter: RateLimiter, address: string, failure: unknown): Promise<unknown> {
  if (!isApiError(failure) || failure.status !== 401) return failure;
  // A guessing script past its budget gets 429 for every wrong key, so it cannot tell 401s apart until the
  // window ends; one key lookup per request is the price, and nothing with keys of 285 bits.
  const decision = await limiter.consume(limiterAddress(address));
  const headers = rateLimitHeaders(FAILED_AUTH_POLICY, limiter.windowSeconds, decision);
  if (!decision.allowed) return errors.tooManyRequests(decision.resetSeconds, headers);
  return new ApiError(401, failure.message, { ...failure.headers, ...headers });
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const IPV6 = /^[0-9a-f:.]*:[0-9a-f:.]*$/i;

/**
 * The key under which a client address's failed authentications are counted: an IPv4 address as is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 (`2001:db8:1:2::/64`), since one host or
 * home router gets a whole /64 and could otherwise take a fresh budget per address. Addresses come from the
 * host's socket, so they are well formed.
 *
 * @example
 * limiterAddress('2001:db8:1:2::7'); // '2001:db8:1:2::/64'
 * limiterAddress('::ffff:192.0.2.1'); // '192.0.2.1'
 */
export function limiterAddress(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names the interface, not the client
  if (!IPV6.test(bare)) return address;
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
          const v4 = IPV4.exec(group);
          if (!v4) return [parseInt(group, 16)];
          const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}
