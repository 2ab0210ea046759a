import {
  authenticate,
  readJsonBody,
  resolveRequestId,
  type ApiRequest,
  type KeyLookup,
} from '@customers-api/core';
import { delay, HttpResponse } from 'msw';
import { toHttpResponse } from './adapt-response.js';
import { forcedError } from './forced-error.js';
import type { ForcedResponse } from './forced-responses.js';

export interface ForcedAnswerOptions {
  lookupKey: KeyLookup;
  /** The plan limit to quote in a forced 403 when the request's key is unknown. */
  customerLimit: number;
}

/**
 * Plays a forced response: waits `delayMs`, then fails the connection or answers the forced status.
 * Resolves undefined when only a delay was forced, so the caller answers for real. Core's rules are not
 * run, so nothing is stored.
 *
 * @example
 * const answer = await forcedAnswer({ status: 500 }, request, { lookupKey, customerLimit: 100 });
 */
export async function forcedAnswer(
  forced: ForcedResponse,
  request: ApiRequest,
  options: ForcedAnswerOptions,
): Promise<Response | undefined> {
  if (forced.delayMs !== undefined) await delay(forced.delayMs);
  if (forced.networkError) return HttpResponse.error();
  if (forced.status === undefined) return undefined;

  const { status } = forced;
  const seller = status === 403 ? await authenticate(request.header, options.lookupKey).catch(() => undefined) : undefined;
  return toHttpResponse(
    forcedError(status, {
      requestId: resolveRequestId(request.header),
      customerLimit: seller?.customerLimit ?? options.customerLimit,
      email: status === 409 ? emailOf(request) : undefined,
      message: forced.message,
      headers: forced.headers,
    }),
  );
}

function emailOf(request: ApiRequest): string | undefined {
  try {
    const { email } = readJsonBody(request.header, request.body);
    return typeof email === 'string' ? email : undefined;
  } catch {
    return undefined;
  }
}
