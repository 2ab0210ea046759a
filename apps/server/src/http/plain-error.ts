import { STATUS_CODES } from 'node:http';
import { API_VERSION_HEADER, LATEST_API_VERSION } from '@customers-api/core';

/**
 * An error answered outside Fastify (by Node's parser callbacks or before routing), in the API's shape:
 * `{ error, message }` with the reason phrase, an X-Request-Id, the latest `Customers-Version` (the request's own
 * headers were not read) and the connection closed afterwards.
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
      [API_VERSION_HEADER.toLowerCase()]: LATEST_API_VERSION,
      connection: 'close',
    },
  };
}
