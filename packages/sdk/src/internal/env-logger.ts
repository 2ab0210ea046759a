import type { LogEvent, Logger } from '../core/logger';
import { readEnv } from './env';
import { slowPath } from './slow-path';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
/** The least level that shows each event: requests at debug, responses at info, retries at warn, failures at error. */
const RANK: Record<LogEvent['type'], number> = { request: 0, response: 1, retry: 2, deprecation: 2, error: 3 };

let cached: Logger | null | undefined;

/**
 * The console logger `CUSTOMERS_API_LOG` asks for (`debug`, `info`, `warn`, `error`, `off`), or `undefined`.
 * Read once per process, on the first client: a logging switch, not per-request configuration.
 */
export function envLogger(): Logger | undefined {
  if (cached === undefined) {
    const value = readEnv('CUSTOMERS_API_LOG')?.toLowerCase();
    const level = LEVELS.indexOf(value as (typeof LEVELS)[number]);
    if (value && value !== 'off' && level < 0) {
      console.warn(`[customers-api] CUSTOMERS_API_LOG must be debug, info, warn, error or off, not "${value}": logging stays off.`);
    }
    // One line per event on stderr (console.error in Node; the console in a browser), as Stainless SDKs log: stdout
    // stays the program's own.
    // The line is made by the lazy chunk (error-hints.ts), which a logging client loads before its first request.
    cached =
      level < 0
        ? null
        : (event) => {
            if (RANK[event.type] >= level) void slowPath().then((kit) => console.error(kit.logLine(event, LEVELS[RANK[event.type]]!)));
          };
  }
  return cached ?? undefined;
}
