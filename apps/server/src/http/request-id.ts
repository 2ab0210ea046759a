import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { clientRequestId, newRequestId, resolveRequestId } from '@customers-api/core';
import { headerReader } from './header-reader.js';

/**
 * Fastify's genReqId: always the server's own id (`request.id`, the `reqId` of every log line), whatever the
 * client sent; a client's `X-Request-Id` is kept beside it ({@link clientRequestIdOf}), never instead of it.
 */
export function serverRequestId(): string {
  return newRequestId();
}

/** The caller's acceptable `X-Request-Id`, or null (core decides what is acceptable). */
export function clientRequestIdOf(request: FastifyRequest | IncomingMessage): string | null {
  return clientRequestId(headerReader(request.headers));
}

/** The `X-Request-Id` a response carries: the client's own when it sent one (as openapi.yaml promises), else ours. */
export function answeredRequestId(request: FastifyRequest): string {
  return clientRequestIdOf(request) ?? request.id;
}

/** A request Fastify never saw (parser errors, a missing Host): the client's id when acceptable, else a new one. */
export function requestIdFor(request: IncomingMessage): string {
  return resolveRequestId(headerReader(request.headers));
}

/**
 * Fastify's childLoggerFactory: every log line of a request carries the server's id (`reqId`) and, when the client
 * sent one, its id as `clientRequestId`, so a line is found by either.
 */
export function requestLogger(
  this: FastifyInstance,
  logger: FastifyInstance['log'],
  bindings: Record<string, unknown>,
  options: object,
  raw: IncomingMessage,
): FastifyInstance['log'] {
  const client = clientRequestIdOf(raw);
  return logger.child(client === null ? bindings : { ...bindings, clientRequestId: client }, options) as FastifyInstance['log'];
}

/** Echoes the request id on every response: successes, errors, unknown routes. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  // onSend runs for every reply (errors thrown by earlier hooks, 404s included); a callback hook, since an async
  // one costs a promise and a microtask per request for one header.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', answeredRequestId(request));
    done(null, payload);
  });
}
