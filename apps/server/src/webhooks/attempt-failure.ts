/**
 * Why an attempt got no usable answer, in words a seller understands (the dashboard's attempts, a delivery's
 * `last_error`): Node's error codes are mapped here once. Unknown codes keep the code in brackets, so nothing is
 * lost, and never the raw Node message (which names internal addresses).
 */

/** Codes that mean the same thing to a seller. */
const PLAIN: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the receiver',
  EPIPE: 'Connection closed by the receiver while sending',
  ETIMEDOUT: 'Connection timed out',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  EHOSTDOWN: 'Host is down',
  ENOTFOUND: 'DNS lookup failed: no such host',
  EAI_AGAIN: 'DNS lookup failed (temporary failure; will retry)',
  EAI_FAIL: 'DNS lookup failed',
  ENODATA: 'DNS lookup failed: the host has no address',
  EPRIVATEADDRESS: 'Resolves only to non-public addresses',
  EPROTO: 'TLS handshake failed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
  CERT_HAS_EXPIRED: 'TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS certificate could not be verified',
  ECONNABORTED: 'Connection aborted',
};

/**
 * "Timed out after 10 s" (whole seconds) or "Timed out after 150 ms".
 *
 * @example
 * timedOutMessage(10_000); // 'Timed out after 10 s'
 */
export function timedOutMessage(timeoutMs: number): string {
  return timeoutMs >= 1000 && timeoutMs % 1000 === 0 ? `Timed out after ${timeoutMs / 1000} s` : `Timed out after ${timeoutMs} ms`;
}

/** A URL naming a non-public IP address, refused before connecting. */
export const NOT_PUBLIC_ADDRESS = 'Not a public address';

/**
 * The plain-language reason of a failed request (an error before any HTTP status came).
 *
 * @example
 * describeAttemptFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
 * // 'Connection refused'
 */
export function describeAttemptFailure(error: Partial<NodeJS.ErrnoException> & { message: string }): string {
  const code = error.code;
  if (code && PLAIN[code]) return PLAIN[code]!;
  if (code?.startsWith('HPE_')) return `Invalid HTTP response (${code})`;
  if (code?.startsWith('ERR_TLS_') || code?.startsWith('ERR_SSL_')) return `TLS failed (${code})`;
  return code ? `Request failed (${code})` : 'Request failed';
}
