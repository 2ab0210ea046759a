import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

export interface MemoryRateLimiterOptions {
  /** Requests per window for every key without its own limit. */
  limit: number;
  /** Window length in seconds; 1 by default ("N requests per second"). */
  windowSeconds?: number;
  /** Milliseconds since the epoch; tests pin it. */
  now?: () => number;
}

/** A {@link RateLimiter} that decides synchronously. */
export interface MemoryRateLimiter extends RateLimiter {
  consume(key: string, limit?: number): RateLimitDecision;
}

interface Window {
  startedAt: number;
  used: number;
}

/**
 * An in-memory fixed-window limiter, the same rule the server applies through rate-limiter-flexible: each key
 * may make `limit` requests per window, and its budget refills whole when the window ends. No timers: a key's
 * window is renewed when it is next asked about, so a browser (MSW) or a mock process pays nothing while idle.
 *
 * @example
 * const limiter = createMemoryRateLimiter({ limit: 5 });
 * limiter.consume('seller-1'); // { allowed: true, limit: 5, remaining: 4, resetSeconds: 1 }
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const windowSeconds = options.windowSeconds ?? 1;
  const windowMs = windowSeconds * 1000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();

  return {
    windowSeconds,
    consume(key: string, limit = options.limit): RateLimitDecision {
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.startedAt >= windowMs) {
        window = { startedAt: at, used: 0 };
        windows.set(key, window);
      }
      window.used += 1;
      const resetSeconds = Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
      return { allowed: window.used <= limit, limit, remaining: Math.max(0, limit - window.used), resetSeconds };
    },
  };
}
