/** The response's `X-Request-Id`, the id the server logged the request under. */
export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? undefined;
}
