import { SPEC_OPERATIONS } from '../generated/operations.js';
import { OPERATION_IDS, type OperationId } from '../http/operations.js';

/** Statuses a forced response may have: the API's own error statuses, and what a gateway in front adds. */
export type ForcedStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 500 | 408 | 429 | 502 | 503 | 504;

/** The success statuses of the API's operations; each operation may be forced to answer its own, with a body. */
export type ForcedSuccessStatus = 200 | 201 | 204;

/** Every error status {@link ForcedResponses} accepts, the API's own first. */
export const FORCED_STATUSES: readonly ForcedStatus[] = [400, 401, 403, 404, 409, 413, 415, 500, 408, 429, 502, 503, 504];

/** The longest delay a timer can wait (2^31 - 1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_DELAY_MS = 2_147_483_647;

/**
 * What the next request(s) to an operation get instead of (or before) the real answer. Forced failures
 * never reach core, so they store nothing.
 */
export interface ForcedResponse {
  /**
   * Answer with this error status: `{ error, message }` and `X-Request-Id`, like the server. Or with the
   * operation's own success status (openapi.yaml's: 201 for createCustomer, 204 for deleteCustomer, else 200)
   * and `body`: that body is sent as given, nothing is stored.
   */
  status?: ForcedStatus | ForcedSuccessStatus;
  /** The JSON body of a forced success (`status` the operation's success status); required unless that is 204. */
  body?: unknown;
  /** Extra response headers, e.g. `{ 'Retry-After': '1' }`; added to the real answer when only delaying. */
  headers?: Record<string, string>;
  /** Replaces the default message of a forced status. */
  message?: string;
  /** Wait this long first; without `status` or `networkError` the real answer follows. */
  delayMs?: number;
  /** Fail like a dropped connection (MSW's `HttpResponse.error()`): fetch rejects with a TypeError. */
  networkError?: boolean;
  /** How many requests in a row get this; default 1. */
  times?: number;
}

/**
 * Forced responses waiting per operation, first in first out. Rejects nonsense when it is queued, not
 * when a request happens to consume it.
 *
 * @example
 * const queue = new ForcedResponses();
 * queue.push('createCustomer', { status: 503, times: 2 });
 * queue.take('createCustomer'); // { status: 503, times: 2 }, twice; then undefined
 */
export class ForcedResponses {
  /** Per operation, in order: each forced response with how many requests it still answers. */
  readonly #queues = new Map<OperationId, Array<{ forced: ForcedResponse; left: number }>>();

  push(operation: OperationId, forced: ForcedResponse): void {
    checkForced(operation, forced);
    const queue = this.#queues.get(operation) ?? [];
    queue.push({ forced, left: forced.times ?? 1 }); // a count, not copies: `times` may be large
    this.#queues.set(operation, queue);
  }

  /** The forced response for the request now arriving, consumed; undefined when none is waiting. */
  take(operation: OperationId): ForcedResponse | undefined {
    const queue = this.#queues.get(operation);
    const next = queue?.[0];
    if (!next) return undefined;
    if (--next.left === 0) queue.shift();
    return next.forced;
  }

  clear(): void {
    this.#queues.clear();
  }
}

/**
 * Throws a TypeError naming what cannot be forced (unknown operation, status, contradictory fields);
 * `where` starts the message.
 *
 * @example
 * checkForced('getCustomer', { status: 201, body: {} }); // TypeError: nextResponse('getCustomer', ...): status 201 cannot be forced; ...
 */
export function checkForced(
  operation: OperationId,
  forced: ForcedResponse,
  where = `nextResponse('${String(operation)}', ...)`,
): void {
  const problem = (text: string) => new TypeError(`${where}: ${text}`);
  if (!OPERATION_IDS.includes(operation)) {
    throw problem(`unknown operation; use one of ${OPERATION_IDS.join(', ')}`);
  }
  const { status, delayMs, networkError, times, body } = forced;
  const success: number = SPEC_OPERATIONS[operation].successStatus;
  if (status !== undefined && status !== success && !FORCED_STATUSES.includes(status as ForcedStatus)) {
    throw problem(`status ${status} cannot be forced; use one of ${[success, ...FORCED_STATUSES].join(', ')}`);
  }
  if (body !== undefined && (status !== success || success === 204)) {
    throw problem(`a body goes only with the success status ${success}${success === 204 ? ', which has none' : ''}`);
  }
  if (status === success && success !== 204 && body === undefined) {
    throw problem(`status ${success} needs the body to answer with`);
  }
  if (status !== undefined && networkError) throw problem('give either status or networkError, not both');
  if (status === undefined && !networkError && delayMs === undefined) {
    throw problem('give a status, networkError: true or delayMs');
  }
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= MAX_DELAY_MS)) {
    throw problem(`delayMs must be a number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  }
  if (times !== undefined && !(Number.isInteger(times) && times >= 1)) {
    throw problem('times must be a whole number, 1 or more');
  }
}
