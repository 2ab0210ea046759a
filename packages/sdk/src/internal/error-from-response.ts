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

/** Status → class and a hint saying how to fix it. */
const BY_STATUS: Record<number, [ErrorClass, string]> = {
  400: [BadRequestError, 'Fix the request: the message names the failing property.'],
  401: [
    AuthenticationError,
    'Check the apiKey option (or CUSTOMERS_API_KEY): create or rotate keys in the dashboard under Settings, then API Keys.',
  ],
  403: [
    PermissionDeniedError,
    "The subscription plan's customer limit is reached: delete customers you no longer need or upgrade the plan.",
  ],
  404: [
    NotFoundError,
    'Check the customer id: deleted customers and customers of other seller accounts are not found.',
  ],
  409: [ConflictError, 'Use another email address, or update the customer that already has it.'],
  413: [PayloadTooLargeError, 'Request bodies are limited to 64 KiB.'],
  415: [UnsupportedMediaTypeError, 'Send the body as application/json (a proxy may have rewritten it).'],
  429: [RateLimitError, 'Too many requests: slow down or raise maxRetries.'],
};

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const b = body as Partial<Record<keyof ApiErrorBody, unknown>> | null;
  return typeof b === 'object' && b !== null && typeof b.error === 'string' && typeof b.message === 'string';
}

/** openapi-fetch's parsed error body as the API's `{ error, message }`, or text: never `unknown`. */
export function errorBody(parsed: unknown): ErrorResponseBody {
  if (isApiErrorBody(parsed) || typeof parsed === 'string') return parsed;
  return parsed === undefined ? '' : JSON.stringify(parsed);
}

/**
 * Builds the typed error for a non-2xx response from openapi-fetch's parsed body (JSON, text or undefined).
 * `message` reads `409 Conflict: <the server's message>. <how to fix it> (request id ...)`.
 */
export function errorFromResponse(status: number, parsed: unknown, headers: Headers): ApiCallError {
  const requestId = requestIdOf(headers);
  const body = errorBody(parsed);
  const reason = typeof body === 'object' ? ` ${body.error}` : '';
  const detail = typeof body === 'object' ? body.message : body.slice(0, 200) || 'no details';
  let [Class, hint]: [ErrorClass, string] = BY_STATUS[status] ?? [UnexpectedStatusError, `Unexpected status ${status}.`];
  if (status >= 500 && !BY_STATUS[status]) {
    Class = InternalServerError;
    hint = 'The server failed; retrying later may help.';
  }
  const quote = requestId ? ` (request id ${requestId}; quote it when reporting a problem)` : '';
  const message = `${status}${reason}: ${detail}. ${hint}${quote}`;
  return new Class(message, { status, requestId, headers, body });
}
