import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { resolveRequestId } from '@customers-api/core';

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (malformed request line, headers too large,
 * header timeout): answered in the API's error shape, with a request id, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: STATUS_CODES[status], message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${resolveRequestId(() => undefined)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
