import { checkRateLimit, isApiError } from '@customers-api/core';
import { Redis } from 'ioredis';
import { rateLimitFrom, redisUrlFrom } from '../config.js';
import type { Seller } from '../db/sellers.js';
import { createFlexibleRateLimiter } from '../rate-limit/flexible-rate-limiter.js';
import { firstConnectionAttempt } from '../rate-limit/redis-connection.js';
import { CliError, type CliIo } from './io.js';

/** Where the CLI finds the servers' shared rate-limit counts: `--redis` and `--rate-limit`, as `serve` takes them. */
export interface BudgetFlags {
  redis?: string | undefined;
  'rate-limit'?: string | undefined;
}

/**
 * Takes one request from the seller's API rate budget for an operator's endpoint change, as the dashboard does
 * (issue 23). The budget is shared with running servers only through Redis (`--redis URL` or REDIS_URL, and the
 * servers' default limit from `--rate-limit` or RATE_LIMIT, which names the count's key); without Redis every
 * process counts alone, servers included, and a one-off CLI process has nothing to count against. Spent: a
 * CliError naming the wait. A Redis that cannot be reached counts nothing (the operator is not held up by it).
 *
 * @example
 * await chargeSellerFromCli(seller, values, io);
 */
export async function chargeSellerFromCli(seller: Seller, flags: BudgetFlags, io: CliIo): Promise<void> {
  const { redisUrl } = redisUrlFrom(flags.redis ?? io.env.REDIS_URL);
  const perSecond = rateLimitFrom(flags['rate-limit'] ?? io.env.RATE_LIMIT);
  if (!redisUrl || perSecond === 0 || seller.rate_limit === 0) return;
  const redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await firstConnectionAttempt(redis);
    if (redis.status !== 'ready') return;
    const limiter = createFlexibleRateLimiter({ name: 'seller', limit: perSecond, windowSeconds: 1, redis });
    await checkRateLimit(limiter, { sellerId: seller.id, customerLimit: 0, rateLimit: seller.rate_limit });
  } catch (error) {
    if (isApiError(error) && error.status === 429) {
      throw new CliError(`--seller: the seller's rate limit is spent; ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
    }
    throw error;
  } finally {
    redis.disconnect();
  }
}
