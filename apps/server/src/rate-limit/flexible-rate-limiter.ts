import type { RateLimitDecision, RateLimiter } from '@customers-api/core';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface FlexibleRateLimiterOptions {
  /** Names the budget in Redis keys (`rl:<name>:<limit>:<key>`), so two policies never share a count. */
  name: string;
  /** Requests per window for keys without their own limit. */
  limit: number;
  windowSeconds: number;
  /** Shares the counts between processes; each process counts alone when omitted. */
  redis?: Redis;
}

/**
 * Core's {@link RateLimiter} over rate-limiter-flexible: a fixed window of `limit` requests per `windowSeconds`,
 * counted in memory or, with `redis`, atomically in Redis (one Lua call per request). While Redis cannot be
 * reached each process falls back to its own in-memory count (rate-limiter-flexible's insurance limiter), so
 * requests are neither refused nor unlimited; `connectRedis` logs the outage.
 *
 * @example
 * const sellers = createFlexibleRateLimiter({ name: 'seller', limit: 100, windowSeconds: 1 });
 * await sellers.consume(sellerId); // { allowed: true, limit: 100, remaining: 99, resetSeconds: 1 }
 */
export function createFlexibleRateLimiter(options: FlexibleRateLimiterOptions): RateLimiter {
  const { windowSeconds } = options;
  // One limiter per distinct limit: sellers with their own limit count in their own key space.
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points, duration: windowSeconds });
      limiter = options.redis
        ? new RateLimiterRedis({
            storeClient: options.redis,
            points,
            duration: windowSeconds,
            keyPrefix: `rl:${options.name}:${points}`,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          })
        : memory;
      limiters.set(points, limiter);
    }
    return limiter;
  };

  return {
    windowSeconds,
    async consume(key, limit = options.limit) {
      try {
        return decision(await limiterFor(limit).consume(key), limit, true);
      } catch (refused) {
        if (refused instanceof RateLimiterRes) return decision(refused, limit, false);
        throw refused;
      }
    },
  };
}

function decision(state: RateLimiterRes, limit: number, allowed: boolean): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: state.remainingPoints,
    resetSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
  };
}
