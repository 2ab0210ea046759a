// Which URLs may receive webhooks. A seller's endpoint must not make the server call into its own network
// (SSRF): loopback, private, link-local and other non-public addresses are refused, both when the URL names an
// address and, in the server, on the address actually connected to after DNS resolution.

/** [first address as a number, prefix length] of IPv4 ranges that are not public (IANA special-purpose). */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function parseV4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

function isPublicV4(value: number): boolean {
  return NON_PUBLIC_V4.every(([start, bits]) => {
    const size = 2 ** (32 - bits);
    const first = parseV4(start) as number;
    return value < first || value >= first + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or undefined. */
function parseV6(text: string): number[] | undefined {
  let hexText = text.split('%')[0] ?? '';
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(hexText)?.[1];
  if (v4Tail !== undefined) {
    const value = parseV4(v4Tail);
    if (value === undefined) return undefined;
    const high = Math.floor(value / 65536).toString(16);
    hexText = `${hexText.slice(0, -v4Tail.length)}${high}:${(value % 65536).toString(16)}`;
  }
  const halves = hexText.split('::');
  if (halves.length > 2) return undefined;
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves[1] ? halves[1].split(':') : [];
  const count = left.length + right.length;
  if (![...left, ...right].every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const parse = (groups: string[]) => groups.map((group) => parseInt(group, 16));
  return [...parse(left), ...new Array<number>(8 - count).fill(0), ...parse(right)];
}

function isPublicV6(groups: number[]): boolean {
  const [a = 0, b = 0] = groups;
  const allZeroUntil = (n: number) => groups.slice(0, n).every((group) => group === 0);
  const embeddedV4 = (groups[6] ?? 0) * 65536 + (groups[7] ?? 0);
  if (allZeroUntil(8)) return false; // unspecified
  // Stryker disable next-line EqualityOperator: ::2 to ::ffff are all zero in the first six groups too, refused two lines on
  if (allZeroUntil(7) && groups[7] === 1) return false; // loopback
  if (allZeroUntil(5) && groups[5] === 0xffff) return isPublicV4(embeddedV4); // IPv4-mapped
  if (allZeroUntil(4) && groups[4] === 0xffff && groups[5] === 0) return false; // IPv4-translated ::ffff:0:0:0/96 (RFC 2765)
  if (allZeroUntil(6)) return false; // IPv4-compatible (deprecated)
  if (a === 0x64 && b === 0xff9b && groups.slice(2, 6).every((g) => g === 0)) return isPublicV4(embeddedV4); // NAT64
  if (a === 0x64 && b === 0xff9b && groups[2] === 1) return false; // local-use NAT64 64:ff9b:1::/48 (RFC 8215)
  if (a === 0x3fff && b < 0x1000) return false; // documentation 3fff::/20 (RFC 9637)
  if (a === 0x5f00) return false; // SRv6 SIDs 5f00::/16 (RFC 9602)
  if ((a & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated by RFC 3879, still routed inside networks)
  if ((a & 0xff00) === 0xff00) return false; // multicast
  if (a === 0x2001 && b === 0x0db8) return false; // documentation
  if (a === 0x2001 && b < 0x0200) return false; // IETF protocol assignments, Teredo
  if (a === 0x2002) return false; // 6to4
  if (a === 0x0100 && groups.slice(1, 4).every((g) => g === 0)) return false; // discard 100::/64
  return true;
}

/**
 * Whether an IP address (IPv4 dotted, or IPv6 with or without brackets) is a public unicast address: not
 * loopback, private, link-local, carrier-grade NAT, documentation, multicast or reserved. Anything that does not
 * parse as an address is not public.
 *
 * @example
 * isPublicAddress('93.184.216.34'); // true
 * isPublicAddress('169.254.169.254'); // false
 * isPublicAddress('::ffff:127.0.0.1'); // false
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const v4 = parseV4(bare);
  if (v4 !== undefined) return isPublicV4(v4);
  // Stryker disable next-line StringLiteral: parseV6 finds eight groups only between colons, so text without one is undefined either way
  const v6 = bare.includes(':') ? parseV6(bare) : undefined;
  return v6 !== undefined && isPublicV6(v6);
}

// C0 controls, DEL, C1 controls and the bidirectional formatting characters (ALM, LRM, RLM, LRE…RLO, LRI…PDI): a
// URL holding one would reach an operator's terminal or a seller's screen as something other than what it is (an
// escape sequence, reversed text), and NUL is not storable in PostgreSQL. new URL drops some of them (tabs,
// newlines, leading and trailing controls) and encodes others, so the text as sent is checked.
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const MAX_URL_LENGTH = 2048;

export interface WebhookUrlOptions {
  /** Allow loopback and private addresses (local development and tests: `--allow-private-webhooks`). */
  allowPrivate?: boolean;
}

/**
 * Why a URL cannot be a webhook endpoint, naming the `url` property, or undefined when it can: an absolute http(s)
 * URL without credentials, control or bidirectional formatting characters, of at most 2048 characters as sent and
 * normalized, naming a public address unless `allowPrivate`. Host names are accepted here (`localhost` and `*.localhost` only with `allowPrivate`); their resolved addresses are checked
 * when delivering.
 *
 * @example
 * webhookUrlProblem('ftp://example.com/hook'); // "url must be an http or https URL"
 */
export function webhookUrlProblem(url: string, options: WebhookUrlOptions = {}): string | undefined {
  if (CONTROL_OR_BIDI.test(url)) return 'url must not contain control characters or bidirectional formatting characters';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'url must be an http or https URL';
  if (parsed.username !== '' || parsed.password !== '') return 'url must not contain a user name or password';
  // Both as sent and as stored (normalizing percent-encodes, so it may lengthen a URL).
  if (url.length > MAX_URL_LENGTH || parsed.href.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  if (options.allowPrivate) return undefined;
  const host = parsed.hostname.toLowerCase();
  const isAddress = parseV4(host) !== undefined || host.startsWith('[');
  if (host === 'localhost' || host.endsWith('.localhost') || (isAddress && !isPublicAddress(host))) {
    return 'url must point at a public address (loopback and private networks are refused)';
  }
  return undefined;
}

/**
 * The form a webhook URL is stored, shown and called in: what `new URL(u).href` gives (scheme and host in lower
 * case, an IDN host in punycode, the default port and dot segments dropped, other characters percent-encoded).
 * For a URL {@link webhookUrlProblem} accepted; it throws on one that does not parse.
 *
 * @example
 * normalizeWebhookUrl('HTTPS://CRM.Example.COM:443/a/../hooks'); // 'https://crm.example.com/hooks'
 */
export function normalizeWebhookUrl(url: string): string {
  return new URL(url).href;
}
