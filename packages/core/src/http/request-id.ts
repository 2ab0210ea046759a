import type { HeaderReader } from '../auth/read-api-key.js';
import { isRequestId } from '../validation/validate.js';

/**
 * The `X-Request-Id` of a response: the caller's own when it is acceptable (1 to 128 of
 * `A-Z a-z 0-9 . _ : -`), else a new one. An unacceptable value is replaced rather than rejected: the id
 * only labels logs and must never be why a request fails.
 *
 * @example
 * resolveRequestId((name) => request.headers.get(name)); // "req_3b0c..." or the caller's id
 */
export function resolveRequestId(
  header: HeaderReader,
  newId: () => string = () => `req_${globalThis.crypto.randomUUID().replaceAll('-', '')}`,
): string {
  const sent = header('x-request-id');
  return sent && isRequestId(sent) ? sent : newId();
}
