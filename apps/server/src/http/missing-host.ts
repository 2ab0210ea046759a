import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { missingHostRefusal, refusedRequestAnswer } from '@customers-api/core';
import { requestIdFor } from './request-id.js';

/**
 * Wraps the app's request listener: HTTP/1.1 requests without Host get core's answer to a refused request (a 400
 * in the API's error shape, with an X-Request-Id). Node would refuse them itself, but with a bare 400 (no body,
 * no request id), so the server is created with `requireHostHeader: false` and the check is made here instead,
 * before Fastify.
 */
export function requiringHost(listener: RequestListener): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const refusal = missingHostRefusal(request.httpVersion, request.headers.host);
    if (refusal === undefined) {
      listener(request, response);
      return;
    }
    const refused = refusedRequestAnswer(refusal, requestIdFor(request));
    response.shouldKeepAlive = false;
    response.writeHead(refused.status, refused.headers).end(refused.body);
  };
}
