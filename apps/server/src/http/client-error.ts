import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parserRefusal, refusedRequestAnswer, resolveRequestId } from '@customers-api/core';
import { requestIdFor } from './request-id.js';

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (malformed request line, a NUL byte in a header,
 * headers too large), and requests that did not arrive in time (headers or body stalled past the request
 * timeout): core's answer to a refused request (`{ error, message }` with the API's headers), then the
 * connection is closed. Nothing is written when a response has already begun on the connection (it would corrupt
 * it); the connection is closed all the same.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    // When the headers did arrive (a stalled body), the caller's own X-Request-Id is echoed like on any reply.
    const request: IncomingMessage | undefined = inFlight?.req;
    const id = request ? requestIdFor(request) : resolveRequestId(() => undefined);
    socket.write(refusedRequestAnswer(parserRefusal(error.code), id).raw);
  }
  socket.destroy(error);
}
