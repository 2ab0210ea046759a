import { ApiError, errors, isApiError, rateLimitHeaders, type RateLimiter } from '@customers-api/core';
import type { Redis } from 'ioredis';
import { limiterAddress } from './client-address.js';
import { createFlexibleRateLimiter } from './flexible-rate-limiter.js';
import { createLeasedRateLimiter } from './leased-rate-limiter.js';

/** The server-wide default: Stripe's live-mode limit, far above what one integration needs to stay responsive. */
export const DEFAULT_RATE_LIMIT = 100;

/** Failed authentications a client address (an IPv6 /64) may make per window; then its failures are 429s. */
export const FAILED_AUTH_LIMIT = 20;
export const FAILED_AUTH_WINDOW_SECONDS = 60;
const FAILED_AUTH_POLICY = 'unauthenticated';

export interface RateLimitSettings {
  /** Requests per second per seller (burst of as many); 0 turns every limit off. */
  perSecond: number;
  /** Shares the counts between processes; each process counts alone when omitted. */
  redis?: Redis;
}

/** Both budgets of the API: per seller after authentication, per client address for failed authentications. */
export interface RequestLimits {
  sellers: RateLimiter;
  /**
   * Counts a failed authentication of the address: the 401 to send with its rate-limit headers, or a 429 once the
   * address's budget is spent. Any other error passes through unchanged. Only failures are counted and refused: a
   * valid key is answered whatever the address did before (others behind the same address or proxy included).
   */
  afterFailure(address: string, failure: unknown): Promise<unknown>;
}

/**
 * The server's limits from its settings, or undefined when limiting is off.
 *
 * @example
 * const limits = createRequestLimits({ perSecond: 100 });
 */
export function createRequestLimits(settings: RateLimitSettings): RequestLimits | undefined {
  if (settings.perSecond === 0) return undefined;
  const store = settings.redis ? { redis: settings.redis } : {};
  // Every API request takes from a seller's budget: with Redis, each process leases shares of it rather than making
  // a round trip per request. Failed authentications are rare and counted one by one (exact across processes).
  const seller = { name: 'seller', limit: settings.perSecond, windowSeconds: 1 };
  const sellers = settings.redis
    ? createLeasedRateLimiter({ ...seller, redis: settings.redis })
    : createFlexibleRateLimiter(seller);
  const failures = createFlexibleRateLimiter({
    name: FAILED_AUTH_POLICY,
    limit: FAILED_AUTH_LIMIT,
    windowSeconds: FAILED_AUTH_WINDOW_SECONDS,
    ...store,
  });

  return {
    sellers,
    async afterFailure(address, failure) {
      if (!isApiError(failure) || failure.status !== 401) return failure;
      // A guessing script past its budget gets 429 for every wrong key, so it cannot tell 401s apart until the
      // window ends; one key lookup per request is the price, and nothing with keys of 285 bits.
      const decision = await failures.consume(limiterAddress(address));
      const headers = rateLimitHeaders(FAILED_AUTH_POLICY, failures.windowSeconds, decision);
      if (!decision.allowed) return errors.tooManyRequests(decision.resetSeconds, headers);
      return new ApiError(401, failure.message, { ...failure.headers, ...headers });
    },
  };
}
