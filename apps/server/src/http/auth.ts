import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  assertScope,
  authenticateOperation,
  checkRateLimit,
  errors,
  type KeyAndCustomerLookup,
  type KeyAndPageLookup,
  type KeyLookup,
  type KeyLookups,
  type PreRead,
  type PreReadPage,
  type SellerContext,
} from '@customers-api/core';
import {
  canFindKeyWithCustomer,
  canFindKeyWithPage,
  findActiveKey,
  findActiveKeyWithCustomer,
  findActiveKeyWithPage,
  type ActiveKey,
} from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { readTestModeClock } from '../db/test-clocks.js';
import type { RequestLimits } from '../rate-limit/request-limits.js';
import { resolveCustomerLimit } from '../plans.js';
import { headerReader } from './header-reader.js';
import { queryOf } from './request-target.js';
import type { KeyUsageRecorder } from './key-usage.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The seller the request's API key belongs to; set by the auth hook on every /api route. */
    seller: SellerContext;
    /** The customer read in the same round trip as the key (getCustomer on PostgreSQL), for core's operation. */
    preRead: PreRead | undefined;
    /** The list page read in the same round trip as the key (listCustomers on PostgreSQL), for core's operation. */
    preReadPage: PreReadPage | undefined;
  }
}

/** What the key lookups read with: the database, the recorder of key use, and the clock. */
interface KeyLookupDependencies {
  database: DatabaseHandle;
  usage: KeyUsageRecorder;
  now: () => Date;
}

/**
 * The seller of a key hash for core's `authenticate` ({@link findActiveKey}): a revoked key stops working from the
 * next request on in every process (PostgreSQL: one indexed lookup per request; SQLite: a found key is kept in
 * memory only while no connection of any process has committed a change since). Core reads the key (X-API-Key,
 * else Bearer), checks its shape and answers 401.
 */
export function createKeyLookup({
  database,
  usage,
  now,
}: KeyLookupDependencies): KeyLookup {
  return async (keyHash) => {
    const key = await findActiveKey(database, keyHash, now());
    return key && sellerOf(key, usage);
  };
}

/**
 * The key and the customer a GET reads in one statement (PostgreSQL: one round trip instead of two; a SQLite file:
 * one statement instead of two, the larger part of a GET's CPU), under the same rules as {@link createKeyLookup}
 * (asked on every request, revocation and expiry decided by the database row). Undefined for an in-memory SQLite
 * database, and core takes two steps.
 */
export function createKeyAndCustomerLookup({
  database,
  usage,
  now,
}: KeyLookupDependencies): KeyAndCustomerLookup | undefined {
  if (!canFindKeyWithCustomer(database)) return undefined;
  return async (keyHash, customerId) => {
    const found = await findActiveKeyWithCustomer(database, keyHash, customerId, now());
    return found && { seller: sellerOf(found.key, usage), customer: found.customer };
  };
}

/**
 * The key and a list page in one statement (PostgreSQL: one round trip instead of two), under the same rules as
 * {@link createKeyLookup}. Undefined for SQLite, and core takes two steps.
 */
export function createKeyAndPageLookup({ database, usage, now }: KeyLookupDependencies): KeyAndPageLookup | undefined {
  if (!canFindKeyWithPage(database)) return undefined;
  return async (keyHash, page) => {
    const found = await findActiveKeyWithPage(database, keyHash, page, now());
    return found && { seller: sellerOf(found.key, usage), rows: found.rows };
  };
}

function sellerOf(key: ActiveKey, usage: KeyUsageRecorder): SellerContext & { keyId: string } {
  usage.record(key.keyId, key.lastUsedAt);
  // The key's id rides along for the request log (http/request-logs/): core passes the object on unchanged.
  return {
    sellerId: key.sellerId,
    customerLimit: resolveCustomerLimit(key.plan, key.customerLimitOverride),
    rateLimit: key.rateLimit,
    apiVersion: key.apiVersion,
    keyId: key.keyId,
    mode: key.mode,
    scopes: key.scopes,
  };
}

/** Where a test-mode request reads its seller's test clock (db/test-clocks.ts): the database, and the wall clock. */
export interface TestModeClockSource {
  database: DatabaseHandle;
  now: () => Date;
}

/**
 * A test-mode request's seller on its test clock: the offset read once (with the key's expiry and the seller's
 * test version pin, in one statement), a test key past its expiry on that clock refused like any expired key, and
 * the test pin, when the seller set one, in place of the live one. Live requests never come here.
 */
async function onTestClock(seller: SellerContext, { database, now }: TestModeClockSource): Promise<SellerContext> {
  if (seller.keyId === undefined) return seller;
  const { offsetMs, keyExpiresAt, testApiVersion } = await readTestModeClock(database, seller.keyId);
  if (keyExpiresAt !== null && Date.parse(keyExpiresAt) <= now().getTime() + offsetMs) throw errors.apiKeyInvalid();
  return {
    ...seller,
    ...(offsetMs !== 0 && { testClockOffsetMs: offsetMs }),
    ...(testApiVersion !== null && { apiVersion: testApiVersion }),
  };
}

/** Core's hashApiKey, synchronously: Node's hash instead of a Web Crypto thread-pool round trip per request. */
export function sha256Hex(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Authenticates every request of the scope it is registered in, before its body is read. With `limits`, failed
 * authentications are counted per client address (a wrong key from an address that failed too often is 429, a valid
 * one is always answered), and the seller's budget is taken after authentication, before the operation: its
 * `RateLimit` headers go on every answer, errors included.
 */
export function registerAuth(app: FastifyInstance, lookups: KeyLookups, limits?: RequestLimits, testMode?: TestModeClockSource): void {
  app.decorateRequest('seller', null as unknown as SellerContext);
  app.decorateRequest('preRead', undefined);
  app.decorateRequest('preReadPage', undefined);
  // Core decides whether the route's operation reads its customer in the authentication step.
  const authenticated = async (request: FastifyRequest) => {
    const operation = request.routeOptions.config.operation;
    const { seller, preRead, preReadPage } = await authenticateOperation(
      operation,
      request.params as Record<string, string>,
      headerReader(request.headers),
      lookups,
      sha256Hex,
      operation?.id === 'listCustomers' ? queryOf(request.url) : undefined,
    );
    request.seller = testMode && seller.mode === 'test' ? await onTestClock(seller, testMode) : seller;
    request.preRead = preRead;
    request.preReadPage = preReadPage;
  };
  // A restricted key without the operation's scope: 403 before the body is read (the content-type parser runs
  // after onRequest), as openapi.yaml's order of checks says. Not a failed authentication.
  const scoped = (request: FastifyRequest) => {
    const operation = request.routeOptions.config.operation;
    if (operation) assertScope(operation, request.seller.scopes);
  };
  if (!limits) {
    app.addHook('onRequest', async (request) => {
      await authenticated(request);
      scoped(request);
    });
    return;
  }
  app.addHook('onRequest', async (request, reply) => {
    try {
      await authenticated(request);
    } catch (failure) {
      throw await limits.afterFailure(request.ip, failure);
    }
    reply.headers(await checkRateLimit(limits.sellers, request.seller));
    scoped(request);
  });
}
