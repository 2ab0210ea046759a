import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, splitRequestTarget, type ApiRequest, type ApiResponse } from '@customers-api/core';
import { DatabaseUnavailableError } from '../db/database-unavailable.js';
import { isClientAbort } from './client-abort.js';
import { headerReader } from './header-reader.js';
import { sendApiError } from './send-error.js';
import { toHttpError } from './to-api-error.js';

/** Core's whole API as one function: it answers what no route hosts (unknown paths, other methods). */
export type CoreHandler = (request: ApiRequest) => Promise<ApiResponse>;

/**
 * Every error answers `{ error, message }` (faults are logged, never shown), and every request no route hosts
 * is core's to answer: 404 for an unknown path, 405 + Allow (after authentication) for another method on a
 * known one, exactly as MSW and the HTTP mock answer.
 */
export function registerErrorHandling(app: FastifyInstance, core: CoreHandler): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Fastify's own checks on a request no route hosts (QUERY without Content-Type): core decides, as for any other.
    if (request.is404 && error.code?.startsWith('FST_ERR_')) return answerFromCore(core, request, reply);
    return handleError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) => answerFromCore(core, request, reply));
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply, send = sendApiError): FastifyReply {
  if (isClientAbort(error, request)) {
    // The client's own doing, routine on any public server: a short line, no stack, no error-level alert.
    request.log.info({ code: (error as { code: string }).code }, 'client aborted the request');
    return send(reply, errors.badRequest('the request did not arrive whole'));
  }
  const { apiError, fault } = toHttpError(error, request);
  if (fault) request.log.error({ err: error }, 'request failed');
  else if (error instanceof DatabaseUnavailableError) request.log.warn({ kind: error.kind }, 'the database does not answer');
  return send(reply, apiError);
}

/**
 * Sends core's answer to a request that no Fastify route hosts. `body` is for a path Fastify could not decode
 * (core may still route it to an operation that reads one); elsewhere core reads none.
 *
 * @example
 * app.setNotFoundHandler((request, reply) => answerFromCore(core, request, reply));
 */
export async function answerFromCore(
  core: CoreHandler,
  request: FastifyRequest,
  reply: FastifyReply,
  body: Uint8Array | null = null,
): Promise<FastifyReply> {
  const { path, query } = splitRequestTarget(request.url);
  const response = await core({ method: request.method, path, query, header: headerReader(request.headers), body });
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}
