import type { FastifyRequest } from 'fastify';
import { ApiError, errors, isApiError, isJsonContentType, REASON_PHRASES, type ErrorStatus } from '@customers-api/core';
import { DatabaseUnavailableError } from '../db/database-unavailable.js';

/** What a 503 of a database outage asks clients to wait: a restart takes seconds, and the SDK retries 503s. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Any error raised while handling a request, as core's ApiError. Core's own errors pass through. The API's
 * bodies are judged by core alone (body-reader.ts); Fastify's parser errors come only from the dashboard's
 * forms and JSON, and read like core's. A database that does not answer is a 503 with Retry-After. Anything else
 * is a fault (generic 500).
 */
export function toHttpError(error: unknown, request: FastifyRequest): { apiError: ApiError; fault: boolean } {
  if (isApiError(error)) return { apiError: error, fault: error.status >= 500 };
  // Typed by the connection's owner (db/database-unavailable.ts): a condition of the service, not a fault.
  if (error instanceof DatabaseUnavailableError) {
    return { apiError: errors.serviceUnavailable('the database does not answer', DATABASE_RETRY_AFTER_SECONDS), fault: false };
  }
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { apiError: new ApiError(413, 'Request body is too large'), fault: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      if (!isJsonContentType(request.headers['content-type'])) return { apiError: errors.unsupportedMediaType(), fault: false };
      return { apiError: errors.badRequest('body length does not match the Content-Length header'), fault: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { apiError: errors.badRequest('body must be a JSON object'), fault: false };
    default:
      break;
  }
  const status = typeof error === 'object' && error !== null && 'statusCode' in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500 && status in REASON_PHRASES) {
    const message = error instanceof Error && error.message ? error.message : REASON_PHRASES[status as ErrorStatus];
    return { apiError: new ApiError(status as ErrorStatus, message), fault: false };
  }
  if (status >= 400 && status < 500) return { apiError: errors.badRequest('the request is malformed'), fault: false };
  return { apiError: errors.internal(), fault: true };
}
