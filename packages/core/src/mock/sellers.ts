import { apiKeyKindFor, generateApiKey, isWellFormedApiKey, parseApiKey, type ApiKeyMode } from '../auth/api-key.js';
import { parseScopeList } from '../auth/scopes.js';
import type { KeyLifecycle, KeyLookup } from '../auth/authenticate.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import type { SellerContext } from '../types.js';
import { createKeyHashCache } from './key-hash-cache.js';

/** An API key's lifecycle in a mock, as the dashboard would set it. */
export interface KeySeedLifecycle {
  /** ISO 8601; the key answers 401 from this instant on (a past instant: expired from the start). */
  expiresAt?: string;
  /** True: the key is revoked from the start (401). */
  revoked?: boolean;
}

/** A key's kind in a mock (issue 38): the scopes of a restricted key, and the mode of a generated key. */
export interface KeySeedKind {
  /**
   * The scopes a restricted key (`rk_`) holds (openapi.yaml's `x-scopes` names); omitted for a secret key, which
   * holds every scope. A key given with scopes must be an `rk_` key.
   */
  scopes?: readonly string[] | undefined;
  /** The mode of a key the mock generates (`live` unless told); a given key's prefix says its own. */
  mode?: ApiKeyMode | undefined;
}

/** Another key of a known seller. */
export interface KeySeed extends KeySeedLifecycle, KeySeedKind {
  apiKey: string;
}

/** A seller the mock knows: its API key, id and plan limit. Omitted fields are generated. */
export interface SellerSeed extends KeySeedLifecycle, KeySeedKind {
  apiKey?: string;
  sellerId?: string;
  /** The plan's customer limit; defaults to the mock's `customerLimit` (100). */
  customerLimit?: number;
  /** The API version the seller is pinned to (requests without `Customers-Version` get it); the latest when omitted. */
  apiVersion?: string;
}

export interface MockSeller extends SellerContext {
  apiKey: string;
}

/** Which seller: by id or by API key; neither means the default seller (or the only one). */
export interface SellerRef {
  sellerId?: string;
  apiKey?: string;
}

export interface SellerDirectoryOptions {
  /** Known sellers; when undefined, every well-formed key is the one default seller. */
  sellers?: SellerSeed[] | undefined;
  customerLimit?: number | undefined;
  /** The id of the default seller; generated when omitted. */
  defaultSellerId?: string | undefined;
  /** The mock's clock (milliseconds): key expiry and revocation times follow it; default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The free plan's limit, used when neither the mock nor the seller names one. */
export const DEFAULT_CUSTOMER_LIMIT = 100;

/**
 * The sellers and keys of one mock. Keys live in core's {@link MemoryKeyRegistry} (hashed, with core's
 * revocation rule); without a `sellers` option, any well-formed key the registry does not know belongs to
 * one default seller. Core's `authenticate` refuses malformed keys before any lookup, so those stay 401.
 *
 * @example
 * const directory = createSellerDirectory({});
 * createApiHandler({ service, lookupKey: directory.lookupKey });
 */
export function createSellerDirectory(options: SellerDirectoryOptions) {
  const now = options.now ?? (() => Date.now());
  const keys = new MemoryKeyRegistry({ now });
  /** Hashes the registry holds, usable or not: those never fall back to the default seller. */
  const registered = new Set<string>();
  const byKey = new Map<string, MockSeller>();
  const byId = new Map<string, MockSeller>();
  const customerLimit = options.customerLimit ?? DEFAULT_CUSTOMER_LIMIT;
  const hashKey = createKeyHashCache();
  // Keys are hashed (Web Crypto is async) before they are stored; lookups wait for pending ones so a
  // request sent right after creating the mock already authenticates.
  let pending: Promise<unknown> = Promise.resolve();

  function remember(key: string, adding: Promise<void>): Promise<void> {
    const done = Promise.all([adding, hashKey(key).then((hash) => registered.add(hash))]).then(() => {});
    pending = Promise.all([pending, done]);
    return done;
  }

  function addKey(seller: MockSeller, key: KeySeed): Promise<void> {
    byKey.set(key.apiKey, seller);
    const context = {
      sellerId: seller.sellerId,
      customerLimit: seller.customerLimit,
      ...(seller.apiVersion && { apiVersion: seller.apiVersion }),
      ...(key.scopes && { scopes: key.scopes }),
    };
    return remember(key.apiKey, keys.add(key.apiKey, context, lifecycleOf(key, now)));
  }

  function register(seed: SellerSeed = {}): { seller: MockSeller; done: Promise<void> } {
    const scopes = scopesOf(seed);
    const seller: MockSeller = {
      apiKey: seed.apiKey ?? generateApiKey({ kind: apiKeyKindFor(scopes), mode: seed.mode ?? 'live' }),
      sellerId: seed.sellerId ?? globalThis.crypto.randomUUID(),
      customerLimit: seed.customerLimit ?? customerLimit,
      ...(seed.apiVersion && { apiVersion: seed.apiVersion }),
    };
    const key = { apiKey: seller.apiKey, expiresAt: seed.expiresAt, revoked: seed.revoked, scopes };
    lifecycleOf(key, now); // throws before anything is registered
    kindOf(key);
    byId.set(seller.sellerId, seller);
    return { seller, done: addKey(seller, key) };
  }

  const defaultSeller =
    options.sellers === undefined
      ? register({ customerLimit, ...(options.defaultSellerId && { sellerId: options.defaultSellerId }) }).seller
      : undefined;
  const sellers = (options.sellers ?? []).map((seed) => register(seed).seller);

  const lookupKey: KeyLookup = async (hash) => {
    await pending;
    if (registered.has(hash) || !defaultSeller) return keys.lookup(hash);
    return { sellerId: defaultSeller.sellerId, customerLimit: defaultSeller.customerLimit };
  };

  return {
    /** The sellers given in the options, with generated keys and ids filled in. */
    sellers,
    /** The one seller behind every well-formed key, when no `sellers` were given. */
    defaultSeller,
    /** The plan limit of sellers that name none. */
    customerLimit,
    register,
    lookupKey,
    /** Core's `hashApiKey`, remembered per key: pass it to `createApiHandler` as `hashKey`. */
    hashKey,

    /**
     * Gives a registered seller another key; resolves once it authenticates. Throws a TypeError for an
     * unknown seller.
     */
    addKey(sellerId: string, key: KeySeed): Promise<void> {
      const seller = byId.get(sellerId);
      if (!seller) throw new TypeError(`addKey: no seller has the id ${sellerId}`);
      lifecycleOf(key, now);
      return addKey(seller, kindOf({ ...key, scopes: scopesOf(key) }));
    },

    /** Revokes a key: a registered one through core's registry; any other becomes a revoked default-seller key. */
    revoke(apiKey: string): Promise<void> {
      if (byKey.has(apiKey)) return keys.revoke(apiKey);
      if (!defaultSeller || !isWellFormedApiKey(apiKey)) return Promise.resolve();
      // Stryker disable next-line ObjectLiteral: the key is stored revoked, so its seller is never read
      const context = { sellerId: defaultSeller.sellerId, customerLimit: defaultSeller.customerLimit };
      return remember(apiKey, keys.add(apiKey, context, { revokedAt: new Date(now()).toISOString() }));
    },

    /** The seller a reference names, or undefined. */
    find(ref: SellerRef = {}): SellerContext | undefined {
      const { sellerId, apiKey } = ref;
      const forKey =
        // Stryker disable next-line ConditionalExpression: without a key, the lookups below find nothing either
        apiKey === undefined
          ? undefined
          : (byKey.get(apiKey) ?? (defaultSeller && isWellFormedApiKey(apiKey) ? defaultSeller : undefined));
      if (apiKey !== undefined && (!forKey || (sellerId !== undefined && forKey.sellerId !== sellerId))) return undefined;
      const seller = forKey ?? (sellerId === undefined ? (defaultSeller ?? only(byId)) : byId.get(sellerId));
      return seller && { sellerId: seller.sellerId, customerLimit: seller.customerLimit };
    },
  };
}

export type SellerDirectory = ReturnType<typeof createSellerDirectory>;

/** Core's key lifecycle for a seed's `expiresAt` / `revoked`; a TypeError for a date that does not parse. */
function lifecycleOf({ expiresAt, revoked }: KeySeedLifecycle, now: () => number): KeyLifecycle {
  if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt))) {
    throw new TypeError(`expiresAt must be an ISO 8601 date-time, got ${JSON.stringify(expiresAt)}`);
  }
  return {
    ...(expiresAt !== undefined && { expiresAt }),
    ...(revoked && { revokedAt: new Date(now()).toISOString() }),
  };
}

/** A seed's scopes checked against openapi.yaml's (a TypeError naming an unknown one); undefined for a secret key. */
function scopesOf(seed: KeySeedKind): string[] | undefined {
  if (seed.scopes === undefined) return undefined;
  const parsed = parseScopeList(seed.scopes);
  if (!parsed.ok) throw new TypeError(`scopes: ${parsed.message}`);
  return parsed.scopes;
}

/** A key whose prefix agrees with its scopes (a TypeError otherwise): `rk_` with scopes, `sk_` without. */
function kindOf<T extends KeySeed>(key: T): T {
  const type = parseApiKey(key.apiKey);
  if (type?.kind === 'secret' && key.scopes) throw new TypeError('scopes are for restricted keys (rk_live_ or rk_test_); an sk_ key holds every scope');
  return key;
}

function only<T>(map: Map<string, T>): T | undefined {
  return map.size === 1 ? map.values().next().value : undefined;
}
