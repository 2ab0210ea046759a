import { ApiError } from '@customers-api/core';

/** The response headers a browser may read: the ones the API documents beyond the simple ones. */
export const EXPOSED_HEADERS =
  'X-Request-Id, Customers-Version, Location, Retry-After, WWW-Authenticate, RateLimit, RateLimit-Policy, Deprecation, Sunset, Link';
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
// The X-Customers-Sdk-* headers name the SDK and runtime of every SDK request (browsers ignore a User-Agent).
const ALLOWED_HEADERS =
  'X-API-Key, Authorization, Content-Type, Idempotency-Key, X-Request-Id, Customers-Version, Prefer, X-Customers-Sdk-Version, X-Customers-Sdk-Runtime, X-Customers-Sdk-Runtime-Version';

/** Which origins may call the mock from a browser: any (the default), or only the listed ones. */
export type CorsOrigins = '*' | readonly string[];

type Header = (name: string) => string | undefined;

/**
 * Whether a request is a CORS preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. A plain
 * `OPTIONS` is not: it gets the API's own answer (405 + Allow).
 *
 * @example
 * isPreflight('OPTIONS', (name) => request.headers[name]); // true when both CORS headers are there
 */
export function isPreflight(method: string, header: Header): boolean {
  return method === 'OPTIONS' && !!header('origin') && !!header('access-control-request-method');
}

/**
 * The CORS headers of an actual response: none without `Origin` or for an origin not allowed (the browser
 * then refuses to hand the response over), else `Access-Control-Allow-Origin` and `-Expose-Headers`.
 *
 * @example
 * corsHeaders('*', (name) => request.headers[name]); // { 'Access-Control-Allow-Origin': '*', ... }
 */
export function corsHeaders(origins: CorsOrigins, header: Header): Record<string, string> {
  const origin = header('origin');
  if (!origin) return {};
  if (origins === '*') return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS };
  if (!origins.includes(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' };
}

/**
 * The answer to a preflight: 204 with the methods and headers the API takes, or a 403 `ApiError` for an
 * origin `--cors-origin` does not list.
 *
 * @example
 * preflightHeaders(['http://localhost:5173'], header); // throws for http://evil.test
 */
export function preflightHeaders(origins: CorsOrigins, header: Header): Record<string, string> {
  const allowed = corsHeaders(origins, header);
  if (!allowed['Access-Control-Allow-Origin']) {
    throw new ApiError(403, `Origin ${header('origin')} is not allowed; the mock allows ${[...origins].join(', ')}`);
  }
  return {
    ...allowed,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': header('access-control-request-headers') || ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
  };
}
