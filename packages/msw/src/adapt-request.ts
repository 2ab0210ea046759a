import type { ApiRequest } from '@customers-api/core';

/**
 * The path of a request URL below the mock's base path, as core routes it.
 *
 * @example
 * pathBelow('https://api.example.test/v1/api/customers?x=1', '/v1'); // "/api/customers"
 */
export function pathBelow(url: string | URL, basePath: string): string {
  const { pathname } = typeof url === 'string' ? new URL(url) : url;
  return basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
}

/**
 * A fetch `Request` as core's framework-free {@link ApiRequest}. `basePath` (the path part of the mock's
 * base URL, if any) is cut off so core sees `/api/customers...` wherever the API is mounted. `url` is the
 * request's URL when the caller parsed it already.
 */
export async function toApiRequest(request: Request, basePath: string, url = new URL(request.url)): Promise<ApiRequest> {
  const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
  return {
    method: request.method,
    path: pathBelow(url, basePath),
    query: url.search.slice(1),
    header: (name) => request.headers.get(name),
    body,
  };
}
