/** A request target split at its first `?`: the path as sent (still percent-encoded) and the raw query string. */
export interface RequestTarget {
  /** The path, without query string, percent-encoded as received: what core routes. */
  path: string;
  /** The raw query string without `?` ('' when none): core parses it by the spec's rules. */
  query: string;
}

/**
 * Splits an HTTP request target (`/api/customers?status=active`, Node's `request.url`) into path and raw query
 * string at the first `?`. Nothing is decoded or normalized: routing and query parsing are core's, on the raw
 * text. Every host splits its requests here, so the server, MSW and the HTTP mock see the same path and query.
 *
 * @example
 * splitRequestTarget('/api/customers?limit=20&status=active'); // { path: '/api/customers', query: 'limit=20&status=active' }
 * splitRequestTarget('/api/customers/42');                      // { path: '/api/customers/42', query: '' }
 */
export function splitRequestTarget(target: string): RequestTarget {
  const start = target.indexOf('?');
  return start === -1 ? { path: target, query: '' } : { path: target.slice(0, start), query: target.slice(start + 1) };
}
