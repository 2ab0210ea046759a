import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parserRefusal, refusedRequestAnswer, resolveRequestId } from '@customers-api/core';

/**
 * What Node's HTTP parser refuses before a request exists (a NUL byte in a header, headers over 16 KiB, a
 * malformed request line): core's answer to a refused request, as the reference server gives it (the error
 * body, X-Request-Id, Customers-Version, Cache-Control), then the connection is closed. Node's default is an
 * empty 400/431. Nothing is written once a response has begun on the connection.
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(refusedRequestAnswer(parserRefusal(error.code), resolveRequestId(() => undefined)).raw);
  }
  socket.destroy(error);
}
