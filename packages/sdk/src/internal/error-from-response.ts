import {
  type ApiCallError,
  type ApiErrorBody,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type ErrorResponseBody,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
} from '../core/errors';
import { requestIdOf } from './headers';

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

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const b = body as Partial<Record<keyof ApiErrorBody, unknown>> | null;
  return typeof b === 'object' && b !== null && typeof b.error === 'string' && typeof b.message === 'string';
}

/** The parsed error body as the API's `{ error, message }`, or text: never `unknown`. */
export function errorBody(parsed: unknown): ErrorResponseBody {
  if (isApiErrorBody(parsed) || typeof parsed === 'string') return parsed;
  return parsed === undefined ? '' : JSON.stringify(parsed);
}

/**
 * Builds the typed error for a non-2xx response from its parsed body (JSON, text or undefined) and the advice
 * for its status ({@link hintFor}). `message` reads `409 Conflict: <the server's message>. <how to fix it> (request id ...)`.
 */
export function errorFromResponse(status: number, parsed: unknown, headers: Headers, hint: string): ApiCallError {
  const requestId = requestIdOf(headers);
  const body = errorBody(parsed);
  const reason = typeof body === 'object' ? ` ${body.error}` : '';
  const detail = typeof body === 'object' ? body.message : body.slice(0, 200) || 'no details';
  const Class: ErrorClass = BY_STATUS[status] ?? (status >= 500 ? InternalServerError : UnexpectedStatusError);
  const quote = requestId ? ` (request id ${requestId}; quote it when reporting a problem)` : '';
  return new Class(`${status}${reason}: ${detail}. ${hint}${quote}`, { status, requestId, headers, body });
}
