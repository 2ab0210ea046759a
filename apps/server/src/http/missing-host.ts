import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { errors, refusedRequestAnswer } from '@customers-api/core';
import { requestIdFor } from './request-id.js';

/** An HTTP/1.1 request without a Host header, which RFC 9112 (section 3.2) says a server must refuse with 400. */
export function lacksRequiredHost(request: IncomingMessage): boolean {
  return request.headers.host === undefined && request.httpVersion === '1.1';
}

/**
 * Wraps the app's request listener: HTTP/1.1 requests without Host get core's answer to a refused request (a 400
 * in the API's error shape, with an X-Request-Id). Node would refuse them itself, but with a bare 400 (no body,
 * no request id), so the server is created with `requireHostHeader: false` and the check is made here instead,
 * before Fastify.
 */
export function requiringHost(listener: RequestListener): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (!lacksRequiredHost(request)) {
      listener(request, response);
      return;
    }
    const refused = refusedRequestAnswer(errors.badRequest('An HTTP/1.1 request must carry a Host header'), requestIdFor(request));
    response.shouldKeepAlive = false;
    response.writeHead(refused.status, refused.headers).end(refused.body);
  };
}
