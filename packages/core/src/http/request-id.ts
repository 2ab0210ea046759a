import type { HeaderReader } from '../auth/read-api-key.js';
import { uuidV7Hex } from '../customers/uuid-v7.js';
import { isRequestId } from '../validation/validate.js';

/**
 * A request id the server makes itself: `req_` and 32 hex digits, a time-ordered UUIDv7's. Each request's id is
 * indexed in its request-log row: time-ordered ids append to the end of that index instead of dirtying a random
 * page of it per row (the cost random UUIDv4 keys had for customers, issue 28).
 */
export function newRequestId(unixMillis: number = Date.now()): string {
  return `req_${uuidV7Hex(unixMillis)}`;
}

/**
 * The caller's own `X-Request-Id` when it is acceptable (1 to 128 of `A-Z a-z 0-9 . _ : -`), else null. The
 * server keeps it beside its own id (logs, audit rows, request logs) and marks it as the client's: a client can
 * send any value, so it never replaces the id the server made.
 */
export function clientRequestId(header: HeaderReader): string | null {
  const sent = header('x-request-id');
  return sent && isRequestId(sent) ? sent : null;
}

/**
 * The `X-Request-Id` of a response: the caller's own when it is acceptable, else a new one. An unacceptable value
 * is replaced rather than rejected: the id only labels logs and must never be why a request fails.
 *
 * @example
 * resolveRequestId((name) => request.headers.get(name)); // "req_3b0c..." or the caller's id
 */
export function resolveRequestId(header: HeaderReader, newId: () => string = newRequestId): string {
  return clientRequestId(header) ?? newId();
}
