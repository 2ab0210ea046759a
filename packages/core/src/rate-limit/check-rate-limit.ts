import { errors } from '../errors/registry.js';
import { tenantKey, tenantOf } from '../tenancy/tenant.js';
import type { SellerContext } from '../types.js';
import { rateLimitHeaders } from './headers.js';
import type { RateLimiter } from './rate-limiter.js';

/** The policy name in `RateLimit` and `RateLimit-Policy`: one budget per seller, shared by all its keys. */
export const SELLER_POLICY = 'seller';

/**
 * Takes one request from the seller's budget (its own limit when it has one; 0 means none), the budget of the key's
 * mode: test mode has a budget of its own, as large as the live one, so test traffic never spends live requests
 * (and is not throttled below live, as Stripe's quarter-size test limit is). The rate-limit headers every
 * answer then carries, or a 429 {@link ApiError} with `Retry-After` and the same headers.
 *
 * @example
 * const headers = await checkRateLimit(limiter, seller); // throws errors.tooManyRequests(...) when spent
 */
export async function checkRateLimit(limiter: RateLimiter, seller: SellerContext): Promise<Record<string, string>> {
  if (seller.rateLimit === 0) return {};
  const decision = await limiter.consume(tenantKey(tenantOf(seller)), seller.rateLimit ?? undefined);
  const headers = rateLimitHeaders(SELLER_POLICY, limiter.windowSeconds, decision);
  if (!decision.allowed) throw errors.tooManyRequests(decision.resetSeconds, headers);
  return headers;
}
