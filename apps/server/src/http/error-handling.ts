import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '@customers-api/core';
import { sendApiError } from './send-error.js';
import { toHttpError } from './to-api-error.js';

/** Every error, unknown route and fault answers `{ error, message }`; faults are logged, never shown. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => handleError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    sendApiError(reply, errors.routeNotFound(pathOf(request.url)));
  });
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { apiError, fault } = toHttpError(error, request);
  if (fault) request.log.error({ err: error }, 'request failed');
  return sendApiError(reply, apiError);
}

export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
