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
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
}
