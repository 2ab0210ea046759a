import type { HeaderReader } from '../auth/read-api-key.js';
import { isRequestId } from '../validation/validate.js';

/** A request id the server makes itself: `req_` and 32 hex digits. */
export function newRequestId(): string {
  return `req_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
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
