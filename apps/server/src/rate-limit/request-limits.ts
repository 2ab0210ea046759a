import {
  createMemoryRateLimiter,
  FAILED_AUTH_LIMIT,
  FAILED_AUTH_POLICY,
  FAILED_AUTH_WINDOW_SECONDS,
  limitFailedAuthentication,
  type RateLimiter,
} from '@customers-api/core';
import type { Redis } from 'ioredis';
import { createFlexibleRateLimiter } from './flexible-rate-limiter.js';
import { createLeasedRateLimiter } from './leased-rate-limiter.js';

/** The server-wide default: Stripe's live-mode limit, far above what one integration needs to stay responsive. */
export const DEFAULT_RATE_LIMIT = 100;

// Core's rule for failed authentications (also the HTTP mock's): the budget, its window and its policy name.
export { FAILED_AUTH_LIMIT } from '@customers-api/core';

export interface RateLimitSettings {
  /** Requests per second per seller (burst of as many); 0 turns every limit off. */
  perSecond: number;
  /** Shares the counts between processes; each process counts alone when omitted. */
  redis?: Redis;
  /**
   * The clock the windows follow, in milliseconds (tests): given, both budgets are core's in-memory fixed windows on
   * it (the same rule as rate-limiter-flexible's), so the test decides when a window ends instead of the machine's
   * speed. Not with `redis`.
   */
  now?: () => number;
}

/** Both budgets of the API: per seller after authentication, per client address for failed authentications. */
export interface RequestLimits {
  sellers: RateLimiter;
  /**
   * Counts a failed authentication of the address (core's `limitFailedAuthentication`): the 401 to send with its rate-limit headers, or a 429 once the
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
  const { now } = settings;
  if (now && !settings.redis) {
    const failures = createMemoryRateLimiter({ limit: FAILED_AUTH_LIMIT, windowSeconds: FAILED_AUTH_WINDOW_SECONDS, now });
    return {
      sellers: createMemoryRateLimiter({ limit: seller.limit, windowSeconds: seller.windowSeconds, now }),
      afterFailure: (address, failure) => limitFailedAuthentication(failures, address, failure),
    };
  }
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
    afterFailure: (address, failure) => limitFailedAuthentication(failures, address, failure),
  };
}
