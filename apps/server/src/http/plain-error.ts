import { STATUS_CODES } from 'node:http';

/**
 * An error answered outside Fastify (by Node's parser callbacks or before routing), in the API's shape:
 * `{ error, message }` with the reason phrase, an X-Request-Id, and the connection closed afterwards.
 */
export function plainErrorResponse(status: number, message: string, requestId: string) {
  const reason = STATUS_CODES[status] ?? 'Error';
  const body = JSON.stringify({ error: reason, message });
  return {
    status,
    reason,
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      connection: 'close',
    },
  };
}
