import { createMemoryRateLimiter, type RateLimitDecision, type RateLimiter } from '@customers-api/core';
import type { Redis } from 'ioredis';
import { takeLease } from './redis-lease.js';

/** The share of a budget one process takes per Redis call: a tenth, so a busy seller costs ≤ 10 calls per window. */
export const LEASE_FRACTION = 0.1;

/** Leases one request may see end before it could use them (a window ending during each call): then memory decides. */
const MAX_STALE_LEASES = 3;

export interface LeasedRateLimiterOptions {
  /** Names the budget in Redis keys (`rl:<name>:<limit>:<key>`, rate-limiter-flexible's, so the CLI shares them). */
  name: string;
  /** Requests per window for keys without their own limit. */
  limit: number;
  windowSeconds: number;
  redis: Redis;
  /** The share of a key's limit taken per Redis call, rounded up to a whole token; {@link LEASE_FRACTION} by default. */
  leaseFraction?: number;
  /** Milliseconds on a monotonic clock (`performance.now()` by default): only durations are compared. Tests pin it. */
  now?: () => number;
}

/** What this process holds of one key's budget in the current window. */
interface Share {
  /** Local time by which the window has ended in Redis too (the call's start plus the TTL Redis answered). */
  end: number;
  /** Tokens of this process's leases not spent yet. */
  left: number;
  /** The window's count in Redis at the last lease (every process's grants). */
  used: number;
  /** Redis has granted the whole budget: refuse locally until `end` once `left` is 0. */
  spent: boolean;
}

/**
 * Core's {@link RateLimiter} for a budget shared between processes through Redis without a round trip per request:
 * each process leases a share of a key's budget (a tenth of the limit by default) with one atomic Lua call and
 * spends it in memory; once Redis has granted the whole window's budget, the process refuses locally until the
 * window ends, and what is left of a share then is discarded. Concurrent requests of a key wait for one lease.
 *
 * Bounds: Redis never grants more than the limit per window, and a share is only spent before the window ends in
 * Redis (its end is measured from when the call was sent), so the processes together never admit more than the
 * limit per window. They may admit less: a 429 can come while other processes still hold unspent tokens, at most
 * one share each. The `remaining` count is the window's count as Redis last answered this process, plus this
 * process's unspent share (exact with one process; with several it does not see other processes' leases since).
 * While Redis cannot be reached, each process counts alone in memory (fails open to per-process limits).
 *
 * @example
 * const sellers = createLeasedRateLimiter({ name: 'seller', limit: 100, windowSeconds: 1, redis });
 * await sellers.consume(sellerId); // { allowed: true, limit: 100, remaining: 99, resetSeconds: 1 }
 */
export function createLeasedRateLimiter(options: LeasedRateLimiterOptions): RateLimiter {
  const { windowSeconds, redis } = options;
  const windowMs = windowSeconds * 1000;
  const fraction = options.leaseFraction ?? LEASE_FRACTION;
  const now = options.now ?? (() => performance.now());
  const fallback = createMemoryRateLimiter({ limit: options.limit, windowSeconds, now });
  const shares = new Map<string, Share>();
  const leasing = new Map<string, Promise<boolean>>();
  let sweptAt = now();

  /** Takes the next share of `key`'s budget; false when Redis cannot be asked. */
  async function lease(id: string, key: string, limit: number): Promise<boolean> {
    const sentAt = now();
    const want = Math.max(1, Math.ceil(limit * fraction));
    try {
      const { granted, used, ttlMs } = await takeLease(redis, `rl:${options.name}:${limit}:${key}`, limit, want, windowMs);
      shares.set(id, { end: sentAt + ttlMs, left: granted, used, spent: used >= limit });
    } catch {
      return false;
    }
    // Windows that ended are dropped at most once per window, so idle sellers hold no memory for long.
    if (sentAt - sweptAt >= windowMs) {
      sweptAt = sentAt;
      for (const [other, share] of shares) if (share.end <= sentAt) shares.delete(other);
    }
    return true;
  }

  return {
    windowSeconds,
    async consume(key, limit = options.limit): Promise<RateLimitDecision> {
      const id = `${limit}:${key}`;
      // Each lease either grants tokens or marks the window spent, so this ends; a share that ended before it
      // could be used (a call slower than the window's rest) is counted, and a few of those decide in memory.
      for (let stale = 0; stale <= MAX_STALE_LEASES; ) {
        const at = now();
        const share = shares.get(id);
        if (!share || at >= share.end) stale += 1;
        else {
          const resetSeconds = Math.max(1, Math.ceil((share.end - at) / 1000));
          if (share.left > 0) {
            share.left -= 1;
            return { allowed: true, limit, remaining: Math.max(0, limit - share.used) + share.left, resetSeconds };
          }
          if (share.spent) return { allowed: false, limit, remaining: 0, resetSeconds };
        }
        let pending = leasing.get(id);
        if (!pending) {
          pending = lease(id, key, limit).finally(() => leasing.delete(id));
          leasing.set(id, pending);
        }
        if (!(await pending)) break;
      }
      return fallback.consume(key, limit);
    },
  };
}
