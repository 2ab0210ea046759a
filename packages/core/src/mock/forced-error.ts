import { isApiError, type ApiError } from '../errors/api-error.js';
import type { OperationId } from '../http/operations.js';
import { parseListQuery } from '../validation/list-query.js';
import { errors } from '../errors/registry.js';
import { BODY_LIMIT_BYTES } from '../http/read-json-body.js';
import type { ApiResponse } from '../http/types.js';
import type { ErrorBody } from '../types.js';
import type { ForcedStatus } from './forced-responses.js';

/** What the request tells us, so that a forced error reads like the real one would. */
export interface ForcedErrorContext {
  requestId: string;
  /** The caller's plan limit (for 403), when its key is known; else the mock's default. */
  customerLimit: number;
  /** The `email` of the request body (for 409), when it has one. */
  email?: string | undefined;
  /** Replaces the default message. */
  message?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** The operation forced: a 400 on `listCustomers` is worded as a query parameter problem, as the server words it. */
  operation?: OperationId | undefined;
}

/** The server's words for a list query it refuses (a `limit` out of range), taken from core's own validator. */
function listQueryProblem(): string {
  try {
    parseListQuery('limit=0');
  } catch (error) {
    if (isApiError(error)) return error.message;
  }
  // Stryker disable next-line StringLiteral: unreachable while the validator refuses limit=0
  return 'limit must be at least 1';
}

/** Core's registry decides the wording of every status the API itself answers. */
const FROM_REGISTRY: Partial<Record<ForcedStatus, (context: ForcedErrorContext) => ApiError>> = {
  400: ({ operation }) => errors.badRequest(operation === 'listCustomers' ? listQueryProblem() : 'body must be a JSON object'),
  401: () => errors.apiKeyInvalid(),
  403: ({ customerLimit }) => errors.planLimitReached(customerLimit),
  404: () => errors.customerNotFound(),
  409: ({ email }) => errors.emailTaken(email ?? '(none in the request body)'),
  413: () => errors.payloadTooLarge(BODY_LIMIT_BYTES),
  415: () => errors.unsupportedMediaType(),
  // The server's own limit, as a one-second window would answer it (Retry-After: 1).
  429: () => errors.tooManyRequests(1),
  500: () => errors.internal(),
};

/** Statuses only a gateway or load balancer in front of the API would send; same body shape. */
const GATEWAY: Partial<Record<ForcedStatus, ErrorBody>> = {
  408: { error: 'Request Timeout', message: 'The request took too long to arrive; retry it' },
  502: { error: 'Bad Gateway', message: 'The upstream server answered badly; retry later' },
  503: { error: 'Service Unavailable', message: 'The service is temporarily unavailable; retry later' },
  504: { error: 'Gateway Timeout', message: 'The upstream server did not answer in time; retry later' },
};

/**
 * The response for a forced error status: `{ error, message }` as the server words it (core's registry for
 * the API's own statuses), `Content-Type`, `X-Request-Id`, the status's own headers (`WWW-Authenticate` on
 * 401) and the caller's extra headers.
 *
 * @example
 * forcedError(503, { requestId: 'req_1', customerLimit: 100, headers: { 'Retry-After': '1' } });
 */
export function forcedError(status: ForcedStatus, context: ForcedErrorContext): ApiResponse {
  const apiError = FROM_REGISTRY[status]?.(context);
  const body = apiError?.toBody() ?? GATEWAY[status] ?? { error: 'Error', message: `HTTP ${status}` };
  return {
    status,
    headers: {
      'Content-Type': 'application/json',
      'X-Request-Id': context.requestId,
      ...apiError?.headers,
      ...context.headers,
    },
    body: context.message === undefined ? body : { ...body, message: context.message },
  };
}
