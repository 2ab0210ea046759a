import { errors } from '../errors/registry.js';
import type { SellerContext } from '../types.js';
import { hashApiKey, isWellFormedApiKey } from './api-key.js';
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
  const key = readApiKey(header);
  if (key === undefined) throw errors.apiKeyMissing();
  if (!isWellFormedApiKey(key)) throw errors.apiKeyInvalid();
  const seller = await lookup(await hash(key));
  if (!seller) throw errors.apiKeyInvalid();
  return seller;
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
