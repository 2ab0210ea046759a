import type { FastifyReply } from 'fastify';
import { errorHeaders, type ApiError } from '@customers-api/core';

/** Sends core's error body `{ error, message }` with core's error headers (no-store, WWW-Authenticate, Allow). */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.code(error.status).headers(errorHeaders(error.headers)).type('application/json; charset=utf-8');
  return reply.send(error.toBody());
}
