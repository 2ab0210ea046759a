import { MAX_RATE_LIMIT, parseRateLimit } from '../config.js';
import { CliError } from './io.js';

/**
 * `--rate-limit` of `sellers create` and `sellers update`: requests per second, 0 for none, or `default` (the
 * server's own, stored as null).
 *
 * @example
 * sellerRateLimitFrom('default'); // null
 */
export function sellerRateLimitFrom(text: string): number | null {
  if (text === 'default') return null;
  const value = parseRateLimit(text);
  if (value === undefined) {
    throw new CliError(`--rate-limit must be a whole number from 0 (not limited) to ${MAX_RATE_LIMIT}, or "default", got "${text}"`);
  }
  return value;
}

/** How a seller's limit reads in a message: its own, none, or the server's. */
export function describeSellerRateLimit(rateLimit: number | null): string {
  if (rateLimit === null) return "the server's rate limit";
  return rateLimit === 0 ? 'no rate limit' : `up to ${rateLimit} requests per second`;
}
