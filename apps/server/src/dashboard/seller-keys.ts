import { createApiKey, deleteApiKey, listApiKeys, revokeApiKey, setApiKeyExpiry, type ApiKeyInfo } from '../db/api-keys.js';
import type { ApiKeyMode } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { listApiKeysPage, type KeyCursor } from '../db/api-key-page.js';
import { lockedKeyCount } from '../db/seller-key-count.js';
import { canonicalUuid } from '../db/uuid.js';
import { dashboardErrors } from './dashboard-errors.js';
import { DEFAULT_API_KEY_LIMIT, keyLimitMessage } from './key-limit.js';

export type KeyStatus = 'active' | 'expired' | 'revoked';

/** A key as the dashboard shows it: the listing's fields (never the key or its hash) and its status. */
export interface DashboardKey extends Omit<ApiKeyInfo, 'seller_id'> {
  status: KeyStatus;
}

export function keyStatus(key: Pick<ApiKeyInfo, 'expires_at' | 'revoked_at'>, now: Date): KeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

export function toDashboardKey(key: ApiKeyInfo, now: Date): DashboardKey {
  const { id, name, prefix, created_at, last_used_at, expires_at, revoked_at, mode, scopes } = key;
  return { id, name, prefix, created_at, last_used_at, expires_at, revoked_at, mode, scopes, status: keyStatus(key, now) };
}

export async function listSellerKeys(handle: DatabaseHandle, sellerId: string, now: Date): Promise<DashboardKey[]> {
  return (await listApiKeys(handle, sellerId)).map((key) => toDashboardKey(key, now));
}

/** One page of the seller's keys, oldest first, and the cursor of the next page (null after the last). */
export async function listSellerKeysPage(
  handle: DatabaseHandle,
  sellerId: string,
  page: { limit: number; after?: KeyCursor | undefined; mode?: ApiKeyMode | undefined },
  now: Date,
): Promise<{ keys: DashboardKey[]; next: KeyCursor | null }> {
  const { keys, more } = await listApiKeysPage(handle, sellerId, page);
  const last = keys.at(-1);
  return { keys: keys.map((key) => toDashboardKey(key, now)), next: more && last ? { createdAt: last.created_at, id: last.id } : null };
}

/**
 * Creates a key unless the seller holds its cap of unexpired keys in the key's mode (403 naming it; each mode has its
 * own cap; run it in the transaction that audits it, so a refusal stores nothing). `allowance` lets a roll go one
 * over: the key it replaces expires soon. A live secret key unless `mode` or `scopes` (a restricted key) say otherwise.
 */
export async function createSellerKey(
  handle: DatabaseHandle,
  sellerId: string,
  input: { name: string; expiresAt: string | null; mode?: ApiKeyMode | undefined; scopes?: readonly string[] | null | undefined },
  now: Date,
  allowance = 0,
): Promise<DashboardKey & { key: string }> {
  const mode = input.mode ?? 'live';
  const { keyLimit, unexpired } = await lockedKeyCount(handle, sellerId, now, mode);
  const limit = keyLimit ?? DEFAULT_API_KEY_LIMIT;
  if (unexpired >= limit + allowance) throw dashboardErrors.keyLimit(keyLimitMessage(limit));
  const created = await createApiKey(handle, { sellerId, name: input.name, expiresAt: input.expiresAt, mode, scopes: input.scopes ?? null }, now);
  return { ...toDashboardKey(created, now), key: created.key };
}

/** Revokes one of the seller's keys (the first revocation time is kept); undefined when the seller has no such key. */
export async function revokeSellerKey(
  handle: DatabaseHandle,
  sellerId: string,
  keyId: string,
  now: Date,
): Promise<DashboardKey | undefined> {
  if (!(await revokeApiKey(handle, keyId, now, { sellerId }))) return undefined;
  return (await listSellerKeys(handle, sellerId, now)).find((key) => key.id === canonicalUuid(keyId));
}

/** Deletes one of the seller's keys for good; false when the seller has no such key. */
export function deleteSellerKey(handle: DatabaseHandle, sellerId: string, keyId: string): Promise<boolean> {
  return deleteApiKey(handle, keyId, { sellerId });
}

/** What a roll did: the new key (in full, this once) and the old key with its new expiry. */
export interface RolledKey {
  key: DashboardKey & { key: string };
  previous: DashboardKey;
}

/**
 * Rolls one of the seller's keys: a new key with the same name, mode and scopes now, and the old key expiring `overlapMs` from now
 * (an earlier expiry it had is kept); at the key cap it may go one over (the old key expires after the overlap),
 * never two. Undefined when the seller has no such key; 'inactive' when it is revoked or
 * expired (nothing changes). Run it in a transaction (with the audit rows), so both changes land or neither.
 */
export async function rollSellerKey(
  handle: DatabaseHandle,
  sellerId: string,
  keyId: string,
  overlapMs: number,
  now: Date,
): Promise<RolledKey | 'inactive' | undefined> {
  const old = (await listSellerKeys(handle, sellerId, now)).find((key) => key.id === canonicalUuid(keyId));
  if (!old) return undefined;
  if (old.status !== 'active') return 'inactive';
  const overlapEnd = now.getTime() + overlapMs;
  const expiresAt = old.expires_at !== null && Date.parse(old.expires_at) < overlapEnd ? old.expires_at : new Date(overlapEnd).toISOString();
  await setApiKeyExpiry(handle, old.id, expiresAt, { sellerId });
  // The new key is the old one's kind: same mode, same scopes.
  const key = await createSellerKey(handle, sellerId, { name: old.name, expiresAt: null, mode: old.mode, scopes: old.scopes }, now, 1);
  return { key, previous: { ...old, expires_at: expiresAt } };
}
