import type { FastifyReply } from 'fastify';
import { errorHeaders, type ApiError } from '@customers-api/core';

/** Sends core's error body `{ error, message }` with core's error headers (no-store, WWW-Authenticate, Allow). */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return sendErrorBody(reply, error, error.toBody());
}

/**
 * The dashboard API's error body: core's `{ error, message }`, plus `field` when the error is about one request
 * property or query parameter (core's `ApiError.field`), so a form marks that field without reading the message
 * (openapi.dashboard.yaml's `Error`). The public API's body never carries it.
 */
export function sendDashboardError(reply: FastifyReply, error: ApiError): FastifyReply {
  const fielded = (error.status === 400 || error.status === 409) && error.field !== undefined;
  return sendErrorBody(reply, error, fielded ? { ...error.toBody(), field: error.field } : error.toBody());
}

/** The error's status and core's error headers, then `body` as JSON: both bodies above go out the same way. */
function sendErrorBody(reply: FastifyReply, error: ApiError, body: object): FastifyReply {
  reply.code(error.status).headers(errorHeaders(error.headers)).type('application/json; charset=utf-8');
  return reply.send(body);
}
