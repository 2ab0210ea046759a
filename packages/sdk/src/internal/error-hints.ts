import type { ApiErrorBody, ErrorResponseBody } from '../core/errors';
import type { LogEvent } from '../core/logger';

// Everything off the happy path shares this lazy chunk (one import() path in the entry chunk): the deprecation
// notice, the messages of attempts without a response, the retry rules, delay and wait, and the logger's redaction.
export { reportDeprecation } from './deprecation';
export { failureText } from './failure-texts';
export { retryDelayMs } from './retry-delay';
export { shouldRetry } from './retry';
export { redactHeaders } from './redact-headers';
export { sleep } from './sleep';

/** The message of the error of a call whose own `signal` fired: its deadline (`AbortSignal.timeout()`), or an abort. */
export function abortText(timedOut: boolean): string {
  return timedOut
    ? 'The call ran past the deadline of its AbortSignal (AbortSignal.timeout()); it was not retried.'
    : 'The request was aborted by the caller (its AbortSignal fired); it was not retried.';
}

/** The message of `toArray()`'s `TypeError`: `limit` missing, or not an integer from 1 to `max`. */
export function toArrayLimitText(limit: unknown, max: number): string {
  return limit === undefined
    ? `toArray: a limit is required, such as toArray({ limit: 500 }) (1 to ${max}); use for await...of to walk every page.`
    : `toArray: limit must be an integer from 1 to ${max}, got ${String(limit)}.`;
}

/**
 * How to fix each error status, and the error's `message` and `body` made from the response. Loaded with `import()`
 * on the first error response (client.ts), so a client whose calls succeed never downloads these texts. Imports
 * nothing at run time: a module shared with the entry chunk would become a chunk of its own.
 */
const HINTS: Record<number, string> = {
  400: 'Fix the request: the message names the failing property.',
  401: 'Check the apiKey option (or CUSTOMERS_API_KEY): create or rotate keys in the dashboard under Settings, then API Keys.',
  403: "The subscription plan's customer limit is reached: delete customers you no longer need or upgrade the plan.",
  404: 'Check the customer id: deleted customers and customers of other seller accounts are not found.',
  409: 'Use another email address, or update the customer that already has it.',
  413: 'Request bodies are limited to 64 KiB.',
  415: 'Send the body as application/json (a proxy may have rewritten it).',
  429: 'Too many requests: slow down or raise maxRetries.',
};

/**
 * A 404 that is not the API's answer about a customer: the API's "No route matches" (a path it has no operation
 * for), or a page without the API's error body (another server, a proxy): the base URL is the likely culprit.
 */
const NO_ROUTE_HINT =
  'No such route: check the baseUrl option (or CUSTOMERS_API_BASE_URL); it is the origin (and any prefix) before /api/customers.';

/** The advice for a status: its own, else the one for any 5xx, else "Unexpected status N.". */
export function hintFor(status: number): string {
  return HINTS[status] ?? (status >= 500 ? 'The server failed; retrying later may help.' : `Unexpected status ${status}.`);
}

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  const b = body as Partial<Record<keyof ApiErrorBody, unknown>> | null;
  return typeof b === 'object' && b !== null && typeof b.error === 'string' && typeof b.message === 'string';
}

/** The parsed error body as the API's `{ error, message }`, or text: never `unknown`. */
export function errorBody(parsed: unknown): ErrorResponseBody {
  if (isApiErrorBody(parsed) || typeof parsed === 'string') return parsed;
  return parsed === undefined ? '' : JSON.stringify(parsed);
}

/** What an error response says, for {@link errorFromResponse}: its body as typed, and the error's message. */
export interface ErrorDescription {
  body: ErrorResponseBody;
  message: string;
}

/**
 * The body of a non-2xx response (parsed JSON, text or undefined) as the error keeps it, and the error's `message`:
 * `409 Conflict: <the server's message>. <how to fix it> (request id ...)`.
 */
export function describeError(status: number, parsed: unknown, requestId: string | undefined): ErrorDescription {
  const body = errorBody(parsed);
  const reason = typeof body === 'object' ? ` ${body.error}` : '';
  const detail = typeof body === 'object' ? body.message : body.slice(0, 200) || 'no details';
  const quote = requestId ? ` (request id ${requestId}; quote it when reporting a problem)` : '';
  const noRoute = status === 404 && (typeof body !== 'object' || body.message.startsWith('No route matches'));
  return { body, message: `${status}${reason}: ${detail}. ${noRoute ? NO_ROUTE_HINT : hintFor(status)}${quote}` };
}

/**
 * A `CUSTOMERS_API_LOG` event as one line: `[customers-api] <level> <type> <METHOD> <url> <the rest as JSON>` (an
 * error as its name and message; JSON escapes any line break).
 *
 * @example
 * logLine(event, 'info'); // '[customers-api] info response GET http://127.0.0.1:3000/api/customers/42 {"attempt":1,"status":200,...}'
 */
export function logLine(event: LogEvent, level: string): string {
  const { type, method, url, ...rest } = event;
  const details = 'error' in rest ? { ...rest, error: `${rest.error.name}: ${rest.error.message}` } : rest;
  return `[customers-api] ${level} ${type} ${method} ${url} ${JSON.stringify(details)}`;
}

/** The error with the frames of the call that started it (below the SDK's own), when it is an Error with a stack. */
export function withCallerFrames(error: unknown, call: Error): unknown {
  const frames = call.stack?.split('\n').slice(1).join('\n');
  if (error instanceof Error && typeof error.stack === 'string' && frames) {
    try {
      error.stack = `${error.stack}\n    ... called from:\n${frames}`;
    } catch {
      // a frozen error keeps its stack
    }
  }
  return error;
}
