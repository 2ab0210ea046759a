import type { ApiError, ApiResponse } from '@customers-api/core';

/**
 * An `ApiError` from core's registry as the response the mock sends: its status, the headers the status
 * calls for (`Allow`, `WWW-Authenticate`) and exactly `{ error, message }`.
 *
 * @example
 * errorAnswer(errors.badRequest('body.key: is required')); // { status: 400, headers: {}, body: { error: 'Bad Request', ... } }
 */
export function errorAnswer(error: ApiError, headers: Record<string, string> = {}): ApiResponse {
  return { status: error.status, headers: { ...headers, ...error.headers }, body: error.toBody() };
}
