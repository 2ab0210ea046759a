// The response headers kept with a webhook attempt (migration 031) for the delivery detail: few, short, and with
// nothing that could be a credential, so a receiver's answer never puts a secret in front of the seller's staff.

/** At most this many headers, the first ones the receiver sent. */
export const KEPT_HEADERS_LIMIT = 20;
/** A longer value is cut to this many characters. */
export const KEPT_HEADER_VALUE_LIMIT = 200;

const SECRET_NAMES = new Set(['set-cookie', 'cookie', 'authorization', 'proxy-authorization', 'www-authenticate', 'proxy-authenticate']);
const SECRET_WORDS = /token|secret|key|password|session|auth|signature/i;

/**
 * Node's raw header list (`[name, value, name, value, …]`) as a bounded, redacted record: names in lower case,
 * repeated ones joined with `, `, values of credential-like headers replaced by `[redacted]`.
 *
 * @example
 * keptResponseHeaders(['Content-Type', 'text/plain', 'Set-Cookie', 's=1']); // { 'content-type': 'text/plain', 'set-cookie': '[redacted]' }
 */
export function keptResponseHeaders(raw: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = SECRET_NAMES.has(name) || SECRET_WORDS.test(name) ? '[redacted]' : raw[i + 1]!.slice(0, KEPT_HEADER_VALUE_LIMIT);
    if (name in kept) {
      kept[name] = `${kept[name]}, ${value}`.slice(0, KEPT_HEADER_VALUE_LIMIT);
      continue;
    }
    if (count === KEPT_HEADERS_LIMIT) continue;
    kept[name] = value;
    count++;
  }
  return kept;
}
