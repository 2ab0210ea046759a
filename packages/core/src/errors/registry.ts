import { ApiError, isApiError } from './api-error.js';

/** Messages fixed by openapi.yaml's examples, kept in one place so every target words them alike. */
export const MESSAGES = {
  apiKeyMissing:
    'An API key is required; send it in the X-API-Key header or as an Authorization Bearer token',
  apiKeyInvalid: 'The API key is invalid, revoked or expired',
  customerNotFound: 'Customer not found',
  webhookEndpointNotFound: 'Webhook endpoint not found',
  eventNotFound: 'Event not found',
  webhookEndpointDisabled:
    'Webhook endpoint is disabled; enable it (PATCH disabled false) before replaying events',
  unsupportedMediaType: 'Content-Type must be application/json',
  internal: 'An unexpected error occurred; quote the X-Request-Id when reporting it',
  cursorInvalid:
    'cursor is not valid for this query; pass the next_cursor of the previous page with the same filters',
  requestTimeout: 'The request was not received in time',
  idempotencyKeyReused:
    'Idempotency-Key was already used with a different request body; use a new key for a new request',
} as const;

/**
 * Constructors for every error the API defines (fastify's `createError` registry habit): callers never
 * pick a status or word a message ad hoc.
 *
 * @example
 * throw errors.emailTaken('ada@example.com'); // 409 "A customer with email ada@example.com already exists"
 */
export const errors = {
  /** `field`: the property or query parameter the message names, when there is one (see {@link ApiError.field}). */
  badRequest: (message: string, field?: string) => new ApiError(400, message, {}, field),
  apiKeyMissing: () =>
    new ApiError(401, MESSAGES.apiKeyMissing, { 'WWW-Authenticate': 'Bearer' }),
  apiKeyInvalid: () =>
    new ApiError(401, MESSAGES.apiKeyInvalid, { 'WWW-Authenticate': 'Bearer' }),
  planLimitReached: (limit: number) =>
    new ApiError(
      403,
      `Customer limit reached; your subscription plan allows ${limit} ${limit === 1 ? 'customer' : 'customers'}`,
    ),
  /** A test-data operation called with a live key (test mode, issue 38). */
  testKeyRequired: (operationId: string) =>
    new ApiError(403, `${operationId} needs a test key (sk_test_ or rk_test_); this key is live`),
  customerNotFound: () => new ApiError(404, MESSAGES.customerNotFound),
  webhookEndpointNotFound: () => new ApiError(404, MESSAGES.webhookEndpointNotFound),
  eventNotFound: () => new ApiError(404, MESSAGES.eventNotFound),
  /** `message`: endpointLimitMessage(cap), worded once for the API and the dashboard. */
  webhookEndpointLimitReached: (message: string) => new ApiError(403, message),
  /** A restricted key without the scope an operation needs (issue 38); names both. */
  missingScope: (scope: string, operation: { id: string; method: string; path: string }) =>
    new ApiError(
      403,
      `This restricted API key lacks the ${scope} scope, which ${operation.id} (${operation.method} ${operation.path}) needs; ` +
        'create a key granted that scope, or use a secret key',
    ),
  /** `message`: duplicateUrlMessage(url). */
  webhookUrlTaken: (message: string) => new ApiError(409, message, {}, 'url'),
  webhookEndpointDisabled: () => new ApiError(409, MESSAGES.webhookEndpointDisabled),
  routeNotFound: (path: string) => new ApiError(404, `No route matches ${path}`),
  methodNotAllowed: (method: string, allowed: readonly string[]) =>
    new ApiError(405, `Method ${method} is not allowed here; use ${allowed.join(', ')}`, {
      Allow: allowed.join(', '),
    }),
  requestTimeout: () => new ApiError(408, MESSAGES.requestTimeout),
  emailTaken: (email: string) =>
    new ApiError(409, `A customer with email ${email} already exists`, {}, 'email'),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, `Request body must be at most ${limitBytes} bytes`),
  unsupportedMediaType: () => new ApiError(415, MESSAGES.unsupportedMediaType),
  idempotencyKeyReused: () => new ApiError(400, MESSAGES.idempotencyKeyReused),
  idempotencyKeyMalformed: () =>
    new ApiError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters (! to ~, no spaces)'),
  cursorInvalid: () => new ApiError(400, MESSAGES.cursorInvalid, {}, 'cursor'),
  /** `headers` adds the rate-limit fields (`RateLimit`, `RateLimit-Policy`) beside `Retry-After`. */
  tooManyRequests: (retryAfterSeconds: number, headers: Record<string, string> = {}) =>
    new ApiError(
      429,
      `Too many requests; retry after ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}`,
      { ...headers, 'Retry-After': String(retryAfterSeconds) },
    ),
  /** Request headers over the HTTP parser's limit (16 KiB in Node), refused before any route runs. */
  headersTooLarge: () => new ApiError(431, 'Request headers are too large'),
  internal: () => new ApiError(500, MESSAGES.internal),
  /** A host that cannot take traffic now (the reference server's `/readyz`); `reason` says why. */
  serviceUnavailable: (reason: string, retryAfterSeconds = 1) =>
    new ApiError(503, `Not ready: ${reason}`, { 'Retry-After': String(retryAfterSeconds) }),
};

/**
 * Any thrown value as an {@link ApiError}: API errors pass through, everything else becomes a generic 500
 * whose message reveals nothing of the fault (no stack, no driver text).
 *
 * @example
 * const apiError = toApiError(caught); // log `caught` yourself; send only apiError.toBody()
 */
export function toApiError(value: unknown): ApiError {
  if (isApiError(value)) return value;
  return errors.internal();
}
