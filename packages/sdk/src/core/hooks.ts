import type { ApiCallError } from './errors';
import type { RateLimitState } from './rate-limit';

/** What every hook event says about the attempt. */
export interface AttemptInfo {
  method: string;
  /** The full URL, query included. */
  url: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/**
 * Code the client runs around each HTTP attempt (Speakeasy-style hooks). A hook that throws (or rejects) fails the
 * call with its error, which is not retried; async hooks are awaited. Unlike `logger` events, hooks see the live
 * objects: `onRequest` may add or change headers (tracing, signing), and the `X-API-Key` header is in there.
 *
 * @example
 * const client = new CustomersClient({
 *   hooks: {
 *     onRequest: ({ headers }) => headers.set('traceparent', currentTraceparent()),
 *     onResponse: ({ response, durationMs }) => metrics.observe(response.status, durationMs),
 *     onRetry: ({ attempt, delayMs, error, rateLimit }) =>
 *       console.warn(`attempt ${attempt} failed (${error.name}); retrying in ${delayMs} ms`, rateLimit),
 *   },
 * });
 */
export interface ClientHooks {
  /** Before each attempt is sent; `headers` are the ones that will be sent, and may be changed. */
  onRequest?: ((event: AttemptInfo & { headers: Headers }) => void | Promise<void>) | undefined;
  /**
   * After each attempt that got a response, whatever its status. The body has been read already, except under
   * `.asResponse()` (then leave it to the caller, or read a `clone()`).
   */
  onResponse?: ((event: AttemptInfo & { response: Response; durationMs: number }) => void | Promise<void>) | undefined;
  /** Before the client waits to retry: the failed `attempt`, the `delayMs` it will wait, and why. */
  onRetry?: ((event: RetryEvent) => void | Promise<void>) | undefined;
}

/** What {@link ClientHooks.onRetry} receives. */
export interface RetryEvent extends AttemptInfo {
  /** Milliseconds the client waits before the next attempt (`Retry-After` when the server sent a sane one). */
  delayMs: number;
  /** What the failed attempt would have thrown: a status error (429, 5xx, ...), a `ConnectionError` or a `TimeoutError`. */
  error: ApiCallError;
  /** The response of the failed attempt; `undefined` when none arrived. */
  response: Response | undefined;
  /** The rate limit the failed attempt's response announced (`RateLimit` header); `undefined` without one. */
  rateLimit: RateLimitState | undefined;
}
