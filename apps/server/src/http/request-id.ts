import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { resolveRequestId } from '@customers-api/core';
import { headerReader } from './header-reader.js';

/** Fastify's genReqId: the caller's acceptable X-Request-Id, else a new one (core decides). */
export function requestIdFor(request: IncomingMessage): string {
  return resolveRequestId(headerReader(request.headers));
}

/** Echoes the request id on every response: successes, errors, unknown routes. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  // onSend runs for every reply (errors thrown by earlier hooks, 404s included); a callback hook, since an async
  // one costs a promise and a microtask per request for one header.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
}
