import type { ServerResponse } from 'node:http';
import { NETWORK_ERROR, type MockAnswer } from '@customers-api/core';

/**
 * Sends core's answer: status, headers and the JSON body with its `Content-Type` (no body for 204), or, for a forced dropped
 * connection, destroys the socket so the client sees the connection fail without any response.
 *
 * @example
 * writeAnswer(response, { status: 404, headers: { 'X-Request-Id': 'req_1' }, body: { error, message } });
 */
export function writeAnswer(response: ServerResponse, answer: MockAnswer, extraHeaders: Record<string, string> = {}): void {
  if (answer === NETWORK_ERROR) {
    response.socket?.destroy();
    return;
  }
  const body = answer.body === undefined ? undefined : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...extraHeaders,
    ...answer.headers,
    ...(body !== undefined && { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }),
  });
  response.end(body);
}
