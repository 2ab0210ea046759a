import { splitRequestTarget, type MockRequest, type RequestTarget } from '@customers-api/core';

/**
 * The path and raw query string of a request URL below the mock's base path, split as every host splits them.
 *
 * @example
 * targetBelow(new URL('https://api.example.test/v1/api/customers?limit=20'), '/v1'); // { path: '/api/customers', query: 'limit=20' }
 */
export function targetBelow(url: string | URL, basePath: string): RequestTarget {
  const { pathname, search } = typeof url === 'string' ? new URL(url) : url;
  const { path, query } = splitRequestTarget(`${pathname}${search}`);
  return { path: basePath && path.startsWith(basePath) ? path.slice(basePath.length) : path, query };
}

/**
 * The path of a request URL below the mock's base path, as core routes it.
 *
 * @example
 * pathBelow('https://api.example.test/v1/api/customers?x=1', '/v1'); // "/api/customers"
 */
export function pathBelow(url: string | URL, basePath: string): string {
  return targetBelow(url, basePath).path;
}

/**
 * A fetch `Request` as core's framework-free `MockRequest` (an `ApiRequest` with every header, for the journal). `basePath` (the path part of the mock's
 * base URL, if any) is cut off so core sees `/api/customers...` wherever the API is mounted. `url` is the
 * request's URL when the caller parsed it already.
 */
export async function toApiRequest(request: Request, basePath: string, url = new URL(request.url)): Promise<MockRequest> {
  const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
  const { path, query } = targetBelow(url, basePath);
  // Every header too, for the mock's request journal.
  return { method: request.method, path, query, header: (name) => request.headers.get(name), headers: Object.fromEntries(request.headers), body };
}
