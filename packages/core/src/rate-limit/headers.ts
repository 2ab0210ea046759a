import type { RateLimitDecision } from './rate-limiter.js';

/**
 * The `RateLimit-Policy` and `RateLimit` fields of the IETF httpapi draft (draft-ietf-httpapi-ratelimit-headers,
 * structured-field syntax): the policy's quota `q` per window `w`, and what is left of it (`r`) with the seconds
 * until it refills (`t`).
 *
 * @example
 * rateLimitHeaders('seller', 1, { allowed: true, limit: 100, remaining: 42, resetSeconds: 1 });
 * // { 'RateLimit-Policy': '"seller";q=100;w=1', RateLimit: '"seller";r=42;t=1' }
 */
export function rateLimitHeaders(
  policy: string,
  windowSeconds: number,
  decision: RateLimitDecision,
): Record<string, string> {
  return {
    'RateLimit-Policy': `"${policy}";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
