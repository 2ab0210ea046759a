import { checkRateLimit, type RateLimiter } from '@customers-api/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { findSeller } from '../db/sellers.js';

/**
 * A route hook that takes one request from the signed-in seller's API rate budget (the same limiter, limit and
 * `RateLimit` headers as `/api`), for dashboard actions that make work or change endpoints: test events, resends
 * and endpoint changes. Spent: core's 429 with `Retry-After`. Runs after the session guard; a no-op without a
 * limiter (rate limiting off).
 *
 * @example
 * app.post('/webhooks/:id/test', { onRequest: chargeSellerBudget(database, limiter) }, handler);
 */
export function chargeSellerBudget(database: DatabaseHandle, limiter: RateLimiter | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!limiter) return;
    const sellerId = request.dashboardSession!.sellerId;
    const seller = await findSeller(database, sellerId);
    // customerLimit plays no part in the rate check.
    const headers = await checkRateLimit(limiter, { sellerId, customerLimit: 0, rateLimit: seller?.rate_limit ?? null });
    reply.headers(headers);
  };
}
