import type { FastifyRequest } from 'fastify';

/** What the check reads of a request: its headers, and the scheme and host the browser used to reach us. */
export type OriginParts = Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>;

/**
 * CSRF defence for state-changing dashboard requests, besides the SameSite=Strict cookie: the browser's
 * Origin (else Referer) must be this server's very origin: scheme, host and port. Browsers always send Origin on
 * cross-origin POST and DELETE, and a page cannot forge it; a request with neither header is refused.
 * The server's origin is `request.protocol` and `request.host`: the socket and the Host header, or
 * X-Forwarded-Proto and X-Forwarded-Host only when the operator trusts a proxy (`--trust-proxy`).
 */
export function isSameOriginRequest(request: OriginParts): boolean {
  const source = request.headers.origin ?? request.headers.referer;
  if (!source) return false;
  const own = originOf(`${request.protocol}://${request.host}`);
  return own !== undefined && originOf(source) === own;
}

/** `scheme://host[:port]` of a URL (default ports dropped, host lower-cased), or undefined for none. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
