import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { authenticate, type KeyLookup, type SellerContext } from '@customers-api/core';
import { findActiveKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
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
    return { sellerId: key.sellerId, customerLimit: resolveCustomerLimit(key.plan, key.customerLimitOverride) };
  };
}

/** Core's hashApiKey, synchronously: Node's hash instead of a Web Crypto thread-pool round trip per request. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Authenticates every request of the scope it is registered in, before its body is read. */
export function registerAuth(app: FastifyInstance, lookup: KeyLookup): void {
  app.decorateRequest('seller', null as unknown as SellerContext);
  app.addHook('onRequest', async (request) => {
    request.seller = await authenticate(headerReader(request.headers), lookup, sha256Hex);
  });
}
