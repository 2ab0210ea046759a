/** How long a client may take to send a whole request (headers and body) by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The settings of Node's HTTP server that bound how long a request may take to arrive. */
export interface RequestTimeouts {
  /** Node's headersTimeout and requestTimeout: time from a request's first byte to its last. */
  requestTimeout: number;
  /** How often Node looks for requests past their time (it checks on an interval, not per request). */
  connectionsCheckingInterval: number;
  /** A connection on which nothing moves in either direction for this long is closed (a client not reading). */
  socketTimeout: number;
}

/**
 * Node's timeouts for a request deadline of `limitMs`: a stalled request (headers or body) is answered with 408
 * at most `limitMs` after its first byte. Node notices a late request only on its next check, so the check
 * interval is taken off the deadline rather than added to it.
 *
 * @example
 * requestTimeouts(30_000); // { requestTimeout: 29_000, connectionsCheckingInterval: 1_000, socketTimeout: 60_000 }
 */
export function requestTimeouts(limitMs: number = DEFAULT_REQUEST_TIMEOUT_MS): RequestTimeouts {
  const connectionsCheckingInterval = Math.min(1_000, Math.max(1, Math.floor(limitMs / 10)));
  return {
    requestTimeout: Math.max(1, limitMs - connectionsCheckingInterval),
    connectionsCheckingInterval,
    // Longer than the request deadline, so that a stalled request gets its 408 before the socket is dropped.
    socketTimeout: 2 * limitMs,
  };
}
