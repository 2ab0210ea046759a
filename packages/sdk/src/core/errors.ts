/**
 * Every error the SDK throws. All of them extend {@link CustomersApiError}, so one `instanceof` check
 * catches everything the SDK raises on purpose. Each class has a literal `status` type (`NotFoundError`'s is
 * `404`; errors without a response have `undefined`), so {@link ApiCallError} narrows by `status`.
 *
 * `instanceof` works across copies of the SDK (the ESM and the CJS build loaded in one process, or two
 * installed versions): each instance carries the names of its classes under a `Symbol.for` brand, and
 * every class checks that brand in `Symbol.hasInstance`.
 */
import type { components } from '../generated/openapi';
import { rateLimitOf, type RateLimitState } from './rate-limit';
import type { ServerErrorStatus, UnexpectedStatus } from './status';

const BRAND = Symbol.for('@customers-api/sdk.error-kinds');

type Constructor = abstract new (...args: never[]) => unknown;

/** The `{ error, message }` body of every error response of this API (`Error` in `openapi.yaml`). */
export interface ApiErrorBody extends Readonly<components['schemas']['Error']> {}

/**
 * The body of an error response: this API's {@link ApiErrorBody}, or the raw text when something else answered
 * (a proxy's HTML page; `''` when the body was empty; other JSON as its text).
 */
export type ErrorResponseBody = ApiErrorBody | string;

/** What an error knows about the HTTP exchange that caused it. */
export interface ErrorDetails<TStatus extends number | undefined = number | undefined> {
  /** HTTP status, or `undefined` when no response arrived. */
  status?: TStatus;
  /** The response's `X-Request-Id`: quote it when reporting a problem. */
  requestId?: string | undefined;
  /** The raw response headers. */
  headers?: Headers | undefined;
  /** The response body; `error` and `apiMessage` are read from it. */
  body?: ErrorResponseBody | undefined;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of every SDK error.
 *
 * @example
 * try {
 *   await client.customers.get(id);
 * } catch (err) {
 *   if (err instanceof CustomersApiError) console.error(err.status, err.apiMessage ?? err.message, err.requestId);
 *   else throw err;
 * }
 */
export class CustomersApiError<
  TStatus extends number | undefined = number | undefined,
  TBody extends ErrorResponseBody | undefined = ErrorResponseBody | undefined,
> extends Error {
  /** Stable class name used for cross-build `instanceof` and as `name`. */
  static readonly kind: string = 'CustomersApiError';

  static [Symbol.hasInstance]<T extends Constructor>(this: T, value: unknown): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as { [BRAND]?: unknown })[BRAND];
    // The brand decides for the SDK's own classes; a caller's subclass (no own `kind`) uses the prototype chain.
    if (!Array.isArray(kinds) || !Object.hasOwn(this, 'kind')) {
      return Function.prototype[Symbol.hasInstance].call(this, value);
    }
    return kinds.includes((this as unknown as { kind: string }).kind);
  }

  /** HTTP status, or `undefined` when no response arrived (connection errors, timeouts, aborts). */
  readonly status: TStatus;
  /** The HTTP reason phrase from the body's `error` field, e.g. `Not Found`. */
  readonly error: string | undefined;
  /**
   * The server's own message (the body's `message` field), e.g. `A customer with email ... already exists`,
   * without the SDK's advice; `undefined` when the body was not this API's error shape or no response arrived.
   * `message` holds the status, this text, how to fix it and the request id.
   */
  readonly apiMessage: string | undefined;
  /** The response's `X-Request-Id`. */
  readonly requestId: string | undefined;
  /** The raw response headers, when a response arrived. */
  readonly headers: TStatus extends number ? Headers : undefined;
  /** The response body, when a response arrived (see {@link ErrorResponseBody}). */
  readonly body: TBody;

  constructor(message: string, details: ErrorDetails<TStatus> & { body?: TBody } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string' && !kinds.includes(kind)) kinds.push(kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds });
    this.name = (new.target as unknown as { kind: string }).kind;
    const body = details.body;
    this.status = details.status as TStatus;
    this.error = typeof body === 'object' ? body.error : undefined;
    this.apiMessage = typeof body === 'object' ? body.message : undefined;
    this.requestId = details.requestId;
    this.headers = details.headers as this['headers'];
    this.body = body as TBody;
  }
}

/** The body of an error response: {@link ApiErrorBody}, or text. */
type Body = ErrorResponseBody;
// Each class declares a literal `name`, so classes of the same shape (the three without a response) stay apart.

/** The client was configured wrongly (missing or malformed API key, bad base URL, browser without opt-in). */
export class ConfigurationError extends CustomersApiError<undefined, undefined> {
  static override readonly kind: string = 'ConfigurationError';
  declare readonly name: 'ConfigurationError';
}

/** 400: the body is invalid; `apiMessage` names the failing property. Never retried. */
export class BadRequestError extends CustomersApiError<400, Body> {
  static override readonly kind: string = 'BadRequestError';
  declare readonly name: 'BadRequestError';
}

/** 401: the API key is missing, invalid, revoked or expired. Never retried. */
export class AuthenticationError extends CustomersApiError<401, Body> {
  static override readonly kind: string = 'AuthenticationError';
  declare readonly name: 'AuthenticationError';
}

/** 403: the subscription plan's customer limit is reached. Never retried. */
export class PermissionDeniedError extends CustomersApiError<403, Body> {
  static override readonly kind: string = 'PermissionDeniedError';
  declare readonly name: 'PermissionDeniedError';
}

/** 404: no such customer for this seller (also for ids that are not UUIDs). Never retried. */
export class NotFoundError extends CustomersApiError<404, Body> {
  static override readonly kind: string = 'NotFoundError';
  declare readonly name: 'NotFoundError';
}

/** 409: another customer of the seller already has this email. Never retried. */
export class ConflictError extends CustomersApiError<409, Body> {
  static override readonly kind: string = 'ConflictError';
  declare readonly name: 'ConflictError';
}

/** 413: the request body is larger than 64 KiB. Never retried. */
export class PayloadTooLargeError extends CustomersApiError<413, Body> {
  static override readonly kind: string = 'PayloadTooLargeError';
  declare readonly name: 'PayloadTooLargeError';
}

/** 415: the body was not sent as JSON (usually a proxy rewrote it). Never retried. */
export class UnsupportedMediaTypeError extends CustomersApiError<415, Body> {
  static override readonly kind: string = 'UnsupportedMediaTypeError';
  declare readonly name: 'UnsupportedMediaTypeError';
}

/**
 * 429: too many requests; thrown after the retries (which honour `Retry-After`) ran out.
 *
 * @example
 * if (err instanceof RateLimitError) console.warn(`over ${err.rateLimit?.limit}/s; full again in ${err.rateLimit?.resetSeconds} s`);
 */
export class RateLimitError extends CustomersApiError<429, Body> {
  static override readonly kind: string = 'RateLimitError';
  declare readonly name: 'RateLimitError';

  /** The spent budget (`RateLimit` and `RateLimit-Policy` headers); `undefined` when the response had none. */
  get rateLimit(): RateLimitState | undefined {
    return rateLimitOf(this.headers);
  }
}

/** 5xx: the server failed; thrown after the retries ran out. `status` is 500 to 599. */
export class InternalServerError extends CustomersApiError<ServerErrorStatus, Body> {
  static override readonly kind: string = 'InternalServerError';
  declare readonly name: 'InternalServerError';
}

/** Any other 3xx or 4xx status, such as 408 (after its retries) or 422. */
export class UnexpectedStatusError extends CustomersApiError<UnexpectedStatus, Body> {
  static override readonly kind: string = 'UnexpectedStatusError';
  declare readonly name: 'UnexpectedStatusError';
}

/** No response: DNS, refused connection, reset socket, or a body that could not be read. Retried. */
export class ConnectionError extends CustomersApiError<undefined, undefined> {
  static override readonly kind: string = 'ConnectionError';
  declare readonly name: 'ConnectionError' | 'TimeoutError';
}

/**
 * No response in time: an attempt exceeded the `timeout` option (then retried), or the caller's signal timed out
 * (`AbortSignal.timeout(ms)` as an overall deadline; not retried). A kind of {@link ConnectionError}.
 */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
  declare readonly name: 'TimeoutError';
}

/** The caller's `AbortSignal` fired (for any reason but a timeout, which is a {@link TimeoutError}). Never retried. */
export class UserAbortError extends CustomersApiError<undefined, undefined> {
  static override readonly kind: string = 'UserAbortError';
  declare readonly name: 'UserAbortError';
}

/**
 * Why {@link WebhookVerificationError} refused a webhook request. `invalid_secret` is a problem of your
 * configuration (answer 500 and fix it); every other reason is the request's (answer 400).
 */
export type WebhookVerificationReason =
  | 'invalid_secret'
  | 'missing_header'
  | 'invalid_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'no_matching_signature'
  | 'invalid_body';

/**
 * A webhook request failed verification: a header is missing or malformed, its timestamp is more than the
 * tolerance away from now, no signature matches the raw body, the body is not JSON, or the secret given is not a
 * `whsec_` secret. `reason` says which; `message` says it in words (it never contains the secret).
 *
 * @example
 * try {
 *   event = await verifyWebhook(rawBody, req.headers, secret);
 * } catch (err) {
 *   if (err instanceof WebhookVerificationError) return reply(err.reason === 'invalid_secret' ? 500 : 400);
 *   throw err;
 * }
 */
export class WebhookVerificationError extends CustomersApiError<undefined, undefined> {
  static override readonly kind: string = 'WebhookVerificationError';
  declare readonly name: 'WebhookVerificationError';
  /** Which check failed. */
  readonly reason: WebhookVerificationReason;

  constructor(message: string, details: ErrorDetails<undefined> & { body?: undefined; reason: WebhookVerificationReason }) {
    super(message, details);
    this.reason = details.reason;
  }
}

/**
 * Every error a call can reject with (and `.result()` resolves `error` with): one class per status, plus the
 * errors without a response. A discriminated union: `error.status === 404` narrows to {@link NotFoundError},
 * `error.status === undefined` to a connection, timeout or abort error.
 *
 * @example
 * const { data, error } = await client.customers.get(id).result();
 * if (error?.status === 404) return null; // error: NotFoundError
 * if (error) throw error;
 * return data;
 */
export type ApiCallError =
  | BadRequestError
  | AuthenticationError
  | PermissionDeniedError
  | NotFoundError
  | ConflictError
  | PayloadTooLargeError
  | UnsupportedMediaTypeError
  | RateLimitError
  | InternalServerError
  | UnexpectedStatusError
  | ConnectionError
  | TimeoutError
  | UserAbortError;
