import type { ApiRequest } from '@customers-api/core';

/**
 * A fetch `Request` as core's framework-free {@link ApiRequest}. `basePath` (the path part of the mock's
 * base URL, if any) is cut off so core sees `/api/customers...` wherever the API is mounted.
 */
export async function toApiRequest(request: Request, basePath: string): Promise<ApiRequest> {
  const { pathname } = new URL(request.url);
  const path = basePath && pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
  const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
  return {
    method: request.method,
    path,
    header: (name) => request.headers.get(name),
    body,
  };
}
