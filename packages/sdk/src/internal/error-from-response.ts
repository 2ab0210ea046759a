import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CustomersApiError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
} from '../core/errors';
import { requestIdOf } from './headers';

type ErrorClass = new (message: string, details: object) => CustomersApiError;

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

function field(body: unknown, name: 'error' | 'message'): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** Builds the typed error for a non-2xx response. `body` is the parsed body (object, text or undefined). */
export function errorFromResponse(status: number, body: unknown, headers: Headers): CustomersApiError {
  const requestId = requestIdOf(headers);
  const reason = field(body, 'error');
  const detail = field(body, 'message') ?? (typeof body === 'string' && body ? body.slice(0, 200) : 'no details');
  let [Class, hint] = BY_STATUS[status] ?? [UnexpectedStatusError, `Unexpected status ${status}.`];
  if (status >= 500 && !BY_STATUS[status]) {
    Class = InternalServerError;
    hint = 'The server failed; retrying later may help.';
  }
  const quote = requestId ? ` (request id ${requestId}; quote it when reporting a problem)` : '';
  const message = `${status}${reason ? ` ${reason}` : ''}: ${detail}. ${hint}${quote}`;
  return new Class(message, { status, error: reason, requestId, headers, body });
}
