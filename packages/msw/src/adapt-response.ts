import type { ApiResponse } from '@customers-api/core';
import { HttpResponse } from 'msw';

/** Core's {@link ApiResponse} as an MSW response: JSON text, or no body at all for 204. */
export function toHttpResponse(response: ApiResponse): HttpResponse<string> {
  return new HttpResponse(response.body === undefined ? null : JSON.stringify(response.body), {
    status: response.status,
    headers: response.headers,
  });
}
