import { authenticate, type KeyLookup } from '../auth/authenticate.js';
import type { HeaderReader } from '../auth/read-api-key.js';
import { API_RESPONSE_HEADERS, pathFor } from '../http/operations.js';
import { readJsonBody } from '../http/read-json-body.js';
import { resolveRequestId } from '../http/request-id.js';
import { apiVersionHeaders } from '../versions/api-version.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { forcedError } from './forced-error.js';
import { operationFor } from './operation.js';
import type { ForcedResponse, ForcedStatus } from './forced-responses.js';

export interface ForcedAnswerOptions {
  lookupKey: KeyLookup;
  /** The plan limit to quote in a forced 403 when the request's key is unknown. */
  customerLimit: number;
}

/** A forced dropped connection: the host fails the request without any response (MSW's `HttpResponse.error()`, a destroyed socket). */
export const NETWORK_ERROR = 'network-error';

/** What a mock host sends: a response, or nothing at all over a failed connection. */
export type MockAnswer = ApiResponse | typeof NETWORK_ERROR;

/**
 * Plays a forced response: waits `delayMs`, then fails the connection, answers the forced error status or
 * the forced success body.
 * Resolves undefined when only a delay was forced, so the caller answers for real. Core's rules are not
 * run, so nothing is stored.
 *
 * @example
 * const answer = await forcedAnswer({ status: 500 }, request, { lookupKey, customerLimit: 100 });
 * // { status: 500, headers: { 'X-Request-Id': ... }, body: { error: 'Internal Server Error', message } }
 */
export async function forcedAnswer(
  forced: ForcedResponse,
  request: ApiRequest,
  options: ForcedAnswerOptions,
): Promise<MockAnswer | undefined> {
  if (forced.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, forced.delayMs));
  if (forced.networkError) return NETWORK_ERROR;
  if (forced.status === undefined) return undefined;

  if (forced.status < 300) return givenAnswer({ ...forced, status: forced.status }, request.header);

  const status = forced.status as ForcedStatus;
  const seller = status === 403 ? await authenticate(request.header, options.lookupKey).catch(() => undefined) : undefined;
  return forcedError(status, {
    requestId: resolveRequestId(request.header),
    customerLimit: seller?.customerLimit ?? options.customerLimit,
    // Stryker disable next-line ConditionalExpression: only the 409 wording reads `email`; reading the body is pure
    email: status === 409 ? emailOf(request) : undefined,
    message: forced.message,
    headers: { ...apiVersionHeaders(request.header), ...forced.headers },
    operation: operationFor(request.method, request.path),
  });
}

function emailOf(request: ApiRequest): string | undefined {
  try {
    const { email } = readJsonBody(request.header, request.body);
    return typeof email === 'string' ? email : undefined;
  }
  // Stryker disable next-line BlockStatement: emptied, the function still ends returning undefined
  catch {
    return undefined;
  }
}

/**
 * A response a mock was told to send (a forced success, or an MSW override's reply) with the headers the server
 * sends: JSON `Content-Type` when there is a body, `Cache-Control`, `Location` for a created customer, the
 * request's `X-Request-Id` and `Customers-Version`, then the caller's `headers`.
 *
 * @example
 * givenAnswer({ status: 200, body: customer }, request.header); // { status: 200, headers: { 'Content-Type': ..., 'X-Request-Id': ... }, body: customer }
 */
export function givenAnswer(
  { status, body, headers }: { status: number; body?: unknown; headers?: Record<string, string> | undefined },
  header: HeaderReader,
): ApiResponse {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return {
    status,
    headers: {
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...API_RESPONSE_HEADERS,
      ...(status === 201 && typeof id === 'string' && { Location: pathFor('getCustomer', { id }) }),
      'X-Request-Id': resolveRequestId(header),
      ...apiVersionHeaders(header),
      ...headers,
    },
    ...(body !== undefined && { body }),
  };
}
