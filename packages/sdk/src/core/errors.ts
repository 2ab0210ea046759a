/**
 * Every error the SDK throws. All of them extend {@link CustomersApiError}, so one `instanceof` check
 * catches everything the SDK raises on purpose.
 *
 * `instanceof` works across copies of the SDK (the ESM and the CJS build loaded in one process, or two
 * installed versions): each instance carries the names of its classes under a `Symbol.for` brand, and
 * every class checks that brand in `Symbol.hasInstance`.
 */

const BRAND = Symbol.for('@customers-api/sdk.error-kinds');

type Constructor = abstract new (...args: never[]) => unknown;

/** What an error knows about the HTTP exchange that caused it. */
export interface ErrorDetails {
  /** HTTP status, or `undefined` when no response arrived. */
  status?: number | undefined;
  /** The `error` field of the response body (the HTTP reason phrase, e.g. `Not Found`). */
  error?: string | undefined;
  /** The response's `X-Request-Id`: quote it when reporting a problem. */
  requestId?: string | undefined;
  /** The raw response headers. */
  headers?: Headers | undefined;
  /** The parsed response body (`{ error, message }` from this API, or text from a proxy). */
  body?: unknown;
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
 *   if (err instanceof CustomersApiError) console.error(err.status, err.message, err.requestId);
 *   else throw err;
 * }
 */
export class CustomersApiError extends Error {
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
  readonly status: number | undefined;
  /** The `error` field of the response body, e.g. `Not Found`. */
  readonly error: string | undefined;
  /** The response's `X-Request-Id`. */
  readonly requestId: string | undefined;
  /** The raw response headers, when a response arrived. */
  readonly headers: Headers | undefined;
  /** The parsed response body, when a response arrived. */
  readonly body: unknown;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string' && !kinds.includes(kind)) kinds.push(kind);
    }
    Object.defineProperty(this, BRAND, { value: kinds });
    this.name = (new.target as unknown as { kind: string }).kind;
    this.status = details.status;
    this.error = details.error;
    this.requestId = details.requestId;
    this.headers = details.headers;
    this.body = details.body;
  }
}

/** The client was configured wrongly (missing or malformed API key, bad base URL, browser without opt-in). */
export class ConfigurationError extends CustomersApiError {
  static override readonly kind: string = 'ConfigurationError';
}

/** 400: the body is invalid; `message` names the failing property. Never retried. */
export class BadRequestError extends CustomersApiError {
  static override readonly kind: string = 'BadRequestError';
}

/** 401: the API key is missing, invalid, revoked or expired. Never retried. */
export class AuthenticationError extends CustomersApiError {
  static override readonly kind: string = 'AuthenticationError';
}

/** 403: the subscription plan's customer limit is reached. Never retried. */
export class PermissionDeniedError extends CustomersApiError {
  static override readonly kind: string = 'PermissionDeniedError';
}

/** 404: no such customer for this seller (also for ids that are not UUIDs). Never retried. */
export class NotFoundError extends CustomersApiError {
  static override readonly kind: string = 'NotFoundError';
}

/** 409: another customer of the seller already has this email. Never retried. */
export class ConflictError extends CustomersApiError {
  static override readonly kind: string = 'ConflictError';
}

/** 413: the request body is larger than 64 KiB. Never retried. */
export class PayloadTooLargeError extends CustomersApiError {
  static override readonly kind: string = 'PayloadTooLargeError';
}

/** 415: the body was not sent as JSON (usually a proxy rewrote it). Never retried. */
export class UnsupportedMediaTypeError extends CustomersApiError {
  static override readonly kind: string = 'UnsupportedMediaTypeError';
}

/** 429: too many requests; thrown after the retries (which honour `Retry-After`) ran out. */
export class RateLimitError extends CustomersApiError {
  static override readonly kind: string = 'RateLimitError';
}

/** 5xx: the server failed; thrown after the retries ran out. */
export class InternalServerError extends CustomersApiError {
  static override readonly kind: string = 'InternalServerError';
}

/** Any other non-2xx status (for example a 502 page from a proxy is an InternalServerError, a 422 is this). */
export class UnexpectedStatusError extends CustomersApiError {
  static override readonly kind: string = 'UnexpectedStatusError';
}

/** No response: DNS, refused connection, reset socket, or a body that could not be read. Retried. */
export class ConnectionError extends CustomersApiError {
  static override readonly kind: string = 'ConnectionError';
}

/** No response within the `timeout` of an attempt. A kind of {@link ConnectionError}; retried. */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
}

/** The caller's `AbortSignal` fired. Never retried. */
export class UserAbortError extends CustomersApiError {
  static override readonly kind: string = 'UserAbortError';
}
