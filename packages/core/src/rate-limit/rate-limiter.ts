/** The outcome of taking one request from a budget. */
export interface RateLimitDecision {
  /** Whether the request fits the budget; a refused one is answered 429. */
  allowed: boolean;
  /** Requests the budget holds per window (the `q` of `RateLimit-Policy`). */
  limit: number;
  /** Requests left in the current window after this one (the `r` of `RateLimit`). */
  remaining: number;
  /** Whole seconds until the budget is full again (the `t` of `RateLimit`, and `Retry-After` on a 429). */
  resetSeconds: number;
}

/**
 * A framework-free rate limiter: the server plugs in rate-limiter-flexible (memory or Redis), MSW and the HTTP
 * mock core's {@link createMemoryRateLimiter}. `limit` overrides the limiter's own per key (a seller's own
 * budget); every budget is counted per window of `windowSeconds`.
 *
 * @example
 * const decision = await limiter.consume(seller.sellerId, seller.rateLimit);
 * if (!decision.allowed) throw errors.tooManyRequests(decision.resetSeconds);
 */
export interface RateLimiter {
  /** The window in seconds (the `w` of `RateLimit-Policy`). */
  readonly windowSeconds: number;
  consume(key: string, limit?: number): Promise<RateLimitDecision> | RateLimitDecision;
}
