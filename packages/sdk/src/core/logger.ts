import type { CustomersApiError } from './errors';

interface Base {
  method: string;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

/**
 * What the `logger` option receives. Header values of `X-API-Key`, `Authorization` and cookies are
 * replaced by `[redacted]`; bodies are never included (they hold personal data).
 */
export type LogEvent =
  | (Base & { type: 'request'; headers: Record<string, string> })
  | (Base & {
      type: 'response';
      status: number;
      requestId: string | undefined;
      headers: Record<string, string>;
      durationMs: number;
    })
  | (Base & { type: 'retry'; delayMs: number; reason: string })
  | (Base & { type: 'error'; error: CustomersApiError })
  | (Base & DeprecationNotice & { type: 'deprecation'; message: string });

/**
 * A response said its API version is deprecated (`Deprecation` header): what the `onDeprecation` option receives,
 * once per client and operation.
 */
export interface DeprecationNotice {
  /** The operation, as `METHOD /path/{template}`, e.g. `GET /customers/{id}`. */
  operation: string;
  /** The version the response was answered in (`Customers-Version`). */
  version: string | undefined;
  /** The `Deprecation` header as sent: `@<epoch seconds>`, when the version was deprecated (RFC 9745). */
  deprecation: string;
  /** The `Sunset` header (an HTTP-date, RFC 8594): from then on requests in this version are refused. */
  sunset: string | undefined;
  /** The URL of the `Link` with `rel="deprecation"`: what changed and how to migrate. */
  link: string | undefined;
}

/**
 * A debug hook. Exceptions it throws are swallowed so logging never breaks a request.
 * @example
 * const client = new CustomersClient({ logger: (e) => console.debug('[customers-api]', e) });
 */
export type Logger = (event: LogEvent) => void;
