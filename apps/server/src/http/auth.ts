import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
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

export type Authenticator = (headers: IncomingHttpHeaders) => Promise<SellerContext>;

/**
 * The seller of a request's API key, or core's 401: core reads the key (X-API-Key, else Bearer) and checks its
 * shape; the database is asked by SHA-256 hash on every request (one indexed lookup, no cache), so a revoked
 * key stops working at once in every process.
 */
export function createAuthenticator({
  database,
  usage,
  now,
}: {
  database: DatabaseHandle;
  usage: KeyUsageRecorder;
  now: () => Date;
}): Authenticator {
  const lookup: KeyLookup = async (keyHash) => {
    const key = await findActiveKey(database, keyHash, now());
    if (!key) return undefined;
    usage.record(key.keyId, key.lastUsedAt);
    return { sellerId: key.sellerId, customerLimit: resolveCustomerLimit(key.plan, key.customerLimitOverride) };
  };
  return (headers) => authenticate(headerReader(headers), lookup, sha256Hex);
}

/** Core's hashApiKey, synchronously: Node's hash instead of a Web Crypto thread-pool round trip per request. */
function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Authenticates every request of the scope it is registered in, before its body is read. */
export function registerAuth(app: FastifyInstance, authenticateRequest: Authenticator): void {
  app.decorateRequest('seller', null as unknown as SellerContext);
  app.addHook('onRequest', async (request) => {
    request.seller = await authenticateRequest(request.headers);
  });
}
