/** 408, 429 and 5xx are worth another attempt; other statuses (409 above all) are answers. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** GET, PATCH and DELETE are safe to repeat; POST only with an Idempotency-Key. */
export function isRetryableRequest(method: string, headers: Headers): boolean {
  return method.toUpperCase() !== 'POST' || headers.has('idempotency-key');
}

/**
 * Whether the client retries after `attempt` (1-based) failed: attempts are left, the request is safe to repeat,
 * and the failure is worth it. A failure without a `response` always is; otherwise the status decides, unless the
 * server (or a gateway) says `x-should-retry: true|false`.
 */
export function shouldRetry(
  response: Response | undefined,
  attempt: number,
  maxRetries: number,
  method: string,
  headers: HeadersInit,
): boolean {
  const verdict = response?.headers.get('x-should-retry');
  const worthRetrying = response ? verdict !== 'false' && (verdict === 'true' || isRetryableStatus(response.status)) : true;
  return worthRetrying && attempt <= maxRetries && isRetryableRequest(method, new Headers(headers));
}
