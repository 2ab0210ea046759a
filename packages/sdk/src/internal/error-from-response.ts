import {
  type ApiCallError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
} from '../core/errors';
import type { ErrorDescription } from './error-hints';

type ErrorClass = new (message: string, details: object) => ApiCallError;

/** Status → class; other 5xx are `InternalServerError`, anything else `UnexpectedStatusError`. */
const BY_STATUS: Record<number, ErrorClass> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  429: RateLimitError,
};

/**
 * Builds the typed error for a non-2xx response: the class its status names, with the body and message
 * {@link describeError} made of the response (lazily loaded, so they are passed in).
 */
export function errorFromResponse(
  status: number,
  headers: Headers,
  requestId: string | undefined,
  { body, message }: ErrorDescription,
): ApiCallError {
  const Class: ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : UnexpectedStatusError);
  return new Class(message, { status, requestId, headers, body });
}
