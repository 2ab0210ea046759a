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
  | (Base & { type: 'error'; error: CustomersApiError });

/**
 * A debug hook. Exceptions it throws are swallowed so logging never breaks a request.
 * @example
 * const client = new CustomersClient({ logger: (e) => console.debug('[customers-api]', e) });
 */
export type Logger = (event: LogEvent) => void;
