import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authenticate, checkRateLimit, type KeyLookup, type SellerContext } from '@customers-api/core';
import { findActiveKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import type { RequestLimits } from '../rate-limit/request-limits.js';
import { resolveCustomerLimit } from '../plans.js';
import { headerReader } from './header-reader.js';
import type { KeyUsageRecorder } from './key-usage.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The seller the request's API key belongs to; set by the auth hook on every /api route. */
    seller: SellerContext;
  }
}

/**
 * The seller of a key hash for core's `authenticate`: the database is asked on every request (one indexed
 * lookup, no cache), so a revoked key stops working at once in every process. Core reads the key (X-API-Key,
 * else Bearer), checks its shape and answers 401.
 */
export function createKeyLookup({
  database,
  usage,
  now,
}: {
  database: DatabaseHandle;
  usage: KeyUsageRecorder;
  now: () => Date;
}): KeyLookup {
  return async (keyHash) => {
    const key = await findActiveKey(database, keyHash, now());
    if (!key) return undefined;
    usage.record(key.keyId, key.lastUsedAt);
    return {
      sellerId: key.sellerId,
      customerLimit: resolveCustomerLimit(key.plan, key.customerLimitOverride),
      rateLimit: key.rateLimit,
    };
  };
}

/** Core's hashApiKey, synchronously: Node's hash instead of a Web Crypto thread-pool round trip per request. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Authenticates every request of the scope it is registered in, before its body is read. With `limits`, a client
 * address that failed too often is refused before its key is looked at, and the seller's budget is taken after
 * authentication, before the operation: its `RateLimit` headers go on every answer, errors included.
 */
export function registerAuth(app: FastifyInstance, lookup: KeyLookup, limits?: RequestLimits): void {
  app.decorateRequest('seller', null as unknown as SellerContext);
  if (!limits) {
    app.addHook('onRequest', async (request) => {
      request.seller = await authenticate(headerReader(request.headers), lookup, sha256Hex);
    });
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    await limits.beforeAuthentication(request.ip);
    try {
      request.seller = await authenticate(headerReader(request.headers), lookup, sha256Hex);
    } catch (failure) {
      throw await limits.afterFailure(request.ip, failure);
    }
    reply.headers(await checkRateLimit(limits.sellers, request.seller));
  });
}
