import type { ErrorBody } from '../types.js';

/** Reason phrases (RFC 9110) of every status the API answers with; the `error` property of an error body. */
export const REASON_PHRASES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const;

export type ErrorStatus = keyof typeof REASON_PHRASES;

/**
 * The one error type of the business rules. Every rejection carries the HTTP status and a message that
 * names what failed; adapters (Fastify, MSW) turn it into `{ error, message }` and never invent their own.
 *
 * @example
 * throw new ApiError(404, 'Customer not found');
 */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  /** Extra response headers the status calls for (for example `WWW-Authenticate` on 401, `Allow` on 405). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The request property (body property or query parameter) a 400 or 409 is about, when it is one: data for a
   * form to mark that field (the dashboard's error body carries it). Never part of the public API's body.
   */
  readonly field: string | undefined;

  constructor(status: ErrorStatus, message: string, headers: Record<string, string> = {}, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
    this.field = field;
  }

  /** The response body: exactly the two properties of the `Error` schema. */
  toBody(): ErrorBody {
    return { error: REASON_PHRASES[this.status], message: this.message };
  }
}

/**
 * Whether a value is an {@link ApiError}. Checks the shape as well as the class, so an error thrown by a
 * second copy of this package (two bundles on one page) is still recognised.
 *
 * @example
 * if (isApiError(err)) reply.status(err.status).send(err.toBody());
 */
export function isApiError(value: unknown): value is ApiError {
  return (
    value instanceof ApiError ||
    (value instanceof Error &&
      value.name === 'ApiError' &&
      typeof (value as Partial<ApiError>).status === 'number' &&
      typeof (value as Partial<ApiError>).toBody === 'function')
  );
}
