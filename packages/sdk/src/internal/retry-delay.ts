// How long to wait before a retry. Loaded with the error texts (error-hints.ts) on the first retry, so a client
// whose calls succeed never downloads it; imports nothing at run time (a module shared with the entry chunk would
// become a chunk of its own).

/** Backoff base and cap: full jitter over 0.5 s, 1 s, 2 s, 4 s, 8 s, 8 s, ... */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;
/** A `Retry-After` longer than this is ignored in favour of the backoff, so a job never hangs for minutes. */
export const RETRY_AFTER_MAX_MS = 60_000;

/** Milliseconds the server asked us to wait (`retry-after-ms`, then `Retry-After` seconds or HTTP date). */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  // Stryker disable next-line MethodExpression: Headers strips leading and trailing whitespace from every value, so trim() never changes what get() returns
  if (value === null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter: uniform in [0, min(cap, base * 2^attempt)). `attempt` is 0-based. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/** How long to wait before retrying after `attempt` failed: the server's `Retry-After` if sane, else backoff. */
export function retryDelayMs(attempt: number, headers?: Headers): number {
  const asked = headers ? retryAfterMs(headers) : undefined;
  return asked !== undefined && asked <= RETRY_AFTER_MAX_MS ? asked : backoffMs(attempt);
}
