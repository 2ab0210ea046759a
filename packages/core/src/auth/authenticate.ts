import { errors } from '../errors/registry.js';
import type { PageRequest } from '../store.js';
import type { Customer, SellerContext } from '../types.js';
import { type ApiKeyType, hashApiKey, parseApiKey } from './api-key.js';
import { type HeaderReader, readApiKey } from './read-api-key.js';

/**
 * Finds the seller of a usable key by its SHA-256 hash; undefined for unknown, revoked or expired keys.
 * Only the hash crosses this boundary, so a store never sees (or logs) the key.
 */
export type KeyLookup = (keyHash: string) => Promise<SellerContext | undefined>;

/**
 * The seller a request acts for, or a 401 {@link ApiError}: "missing" when no key was sent, "invalid"
 * for a malformed, unknown, revoked or expired one (all alike, so a caller learns nothing from the
 * difference). `hash` must compute what {@link hashApiKey} does; a server may pass a synchronous SHA-256
 * (Web Crypto's digest is a thread-pool round trip per request).
 *
 * @example
 * const seller = await authenticate((name) => request.headers.get(name), lookupByHash);
 */
export async function authenticate(
  header: HeaderReader,
  lookup: KeyLookup,
  hash: (key: string) => string | Promise<string> = hashApiKey,
): Promise<SellerContext> {
  const { type, keyHash } = await presentedKeyHash(header, hash);
  const seller = await lookup(keyHash);
  if (!seller) throw errors.apiKeyInvalid();
  return typed(seller, type);
}

/**
 * Like {@link KeyLookup}, and in the same step the key's seller's customer with this id (a well-formed, canonical
 * UUID): one database round trip where two would otherwise follow each other. Undefined for an unknown, revoked or
 * expired key; otherwise the seller and the customer (undefined when the seller has none with that id). A store
 * must apply the same key rules as its {@link KeyLookup} and never return another seller's customer.
 */
export type KeyAndCustomerLookup = (
  keyHash: string,
  customerId: string,
) => Promise<{ seller: SellerContext; customer: Customer | undefined } | undefined>;

/**
 * {@link authenticate} and a read of one customer in one step, through a {@link KeyAndCustomerLookup}: the same
 * 401s in the same order (they come before anything about the customer), and the customer, for the service to
 * answer (its 404 stays the service's rule).
 *
 * @example
 * const { seller, customer } = await authenticateAndRead(header, canonicalId, lookupWithCustomer, sha256Hex);
 */
export async function authenticateAndRead(
  header: HeaderReader,
  customerId: string,
  lookup: KeyAndCustomerLookup,
  hash: (key: string) => string | Promise<string> = hashApiKey,
): Promise<{ seller: SellerContext; customer: Customer | undefined }> {
  const { type, keyHash } = await presentedKeyHash(header, hash);
  const found = await lookup(keyHash, customerId);
  if (!found) throw errors.apiKeyInvalid();
  return { seller: typed(found.seller, type), customer: found.customer };
}

/**
 * Like {@link KeyLookup}, and in the same step a page of the key's seller's customers (what `CustomerStore`'s
 * `listCustomers` returns for that seller and page): one database round trip for a list. Undefined for an unknown,
 * revoked or expired key. A store must apply the same key rules as its {@link KeyLookup} and read only the key's
 * seller's customers.
 */
export type KeyAndPageLookup = (
  keyHash: string,
  page: PageRequest,
) => Promise<{ seller: SellerContext; rows: Customer[] } | undefined>;

/**
 * {@link authenticate} and a read of one list page in one step, through a {@link KeyAndPageLookup}: the same 401s
 * in the same order, then the rows.
 *
 * @example
 * const { seller, rows } = await authenticateAndList(header, plan.page, lookupWithPage, sha256Hex);
 */
export async function authenticateAndList(
  header: HeaderReader,
  page: PageRequest,
  lookup: KeyAndPageLookup,
  hash: (key: string) => string | Promise<string> = hashApiKey,
): Promise<{ seller: SellerContext; rows: Customer[] }> {
  const { type, keyHash } = await presentedKeyHash(header, hash);
  const found = await lookup(keyHash, page);
  if (!found) throw errors.apiKeyInvalid();
  return { seller: typed(found.seller, type), rows: found.rows };
}

/** The request key's kind and hash, or the 401 for a missing or malformed one (no lookup for those). */
async function presentedKeyHash(
  header: HeaderReader,
  hash: (key: string) => string | Promise<string>,
): Promise<{ type: ApiKeyType; keyHash: string }> {
  const key = readApiKey(header);
  if (key === undefined) throw errors.apiKeyMissing();
  const type = parseApiKey(key);
  if (!type) throw errors.apiKeyInvalid();
  return { type, keyHash: await hash(key) };
}

/**
 * The seller context with what the key's prefix says where the lookup did not say it: the mode, and for a
 * restricted key without a stored list, no scope at all (a restricted key never holds every scope). A store that
 * gives both (the server's) is answered as it is, without a copy.
 */
function typed(seller: SellerContext, type: ApiKeyType): SellerContext {
  if (seller.mode !== undefined && seller.scopes !== undefined) return seller;
  return {
    ...seller,
    mode: seller.mode ?? type.mode,
    scopes: seller.scopes !== undefined ? seller.scopes : type.kind === 'restricted' ? [] : null,
  };
}

/** A stored key's lifecycle fields, as the dashboard manages them. */
export interface KeyLifecycle {
  /** ISO 8601; set once the key is revoked. */
  revokedAt?: string | null;
  /** ISO 8601; the key stops working at this instant. */
  expiresAt?: string | null;
}

/**
 * Whether a stored key may still authenticate at `now`: not revoked and not past its expiry.
 *
 * @example
 * isKeyUsable({ revokedAt: null, expiresAt: '2027-01-01T00:00:00.000Z' }, new Date()); // true in 2026
 */
export function isKeyUsable(key: KeyLifecycle, now: Date): boolean {
  if (key.revokedAt) return false;
  return !key.expiresAt || Date.parse(key.expiresAt) > now.getTime();
}
