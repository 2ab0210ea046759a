import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errors, resolveRequestId } from '@customers-api/core';
import { plainErrorResponse } from './plain-error.js';
import { requestIdFor } from './request-id.js';

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (malformed request line, headers too large),
 * and requests that did not arrive in time (headers or body stalled past the request timeout): answered in the
 * API's error shape, with a request id, then the connection is closed. Nothing is written when a response has
 * already begun on the connection (it would corrupt it); the connection is closed all the same.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? { status: 431, message: 'Request headers are too large' }
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.requestTimeout()
        : errors.badRequest('The request is not valid HTTP');
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    // When the headers did arrive (a stalled body), the caller's own X-Request-Id is echoed like on any reply.
    const request: IncomingMessage | undefined = inFlight?.req;
    const id = request ? requestIdFor(request) : resolveRequestId(() => undefined);
    const response = plainErrorResponse(status, message, id);
    const head = Object.entries(response.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.write(`HTTP/1.1 ${status} ${response.reason}\r\n${head}\r\n${response.body}`);
  }
  socket.destroy(error);
}
