import type { FastifyReply } from 'fastify';
import type { ApiError } from '@customers-api/core';

/** Sends core's error body `{ error, message }` with the headers the status calls for (WWW-Authenticate, Allow). */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8');
  return reply.send(error.toBody());
}
