import { API_KEY_INFO_COLUMNS, apiKeyInfoOf, type ApiKeyInfo } from './api-keys.js';
import type { ApiKeyMode } from '@customers-api/core';
import type { DatabaseHandle } from './connect.js';
import { canonicalUuid } from './uuid.js';

/** Where a page of keys starts: after this key, in (created_at, id) order. */
export interface KeyCursor {
  createdAt: string;
  id: string;
}

/**
 * One page of a seller's keys, oldest first, after `after`: at most `limit` rows read through the
 * (seller_id, …) index whatever the seller holds (of one mode when `mode` is given), and whether more follow (one row more is read to know).
 *
 * @example
 * const { keys, more } = await listApiKeysPage(handle, sellerId, { limit: 100 });
 */
export async function listApiKeysPage(
  handle: DatabaseHandle,
  sellerIdArg: string,
  { limit, after, mode }: { limit: number; after?: KeyCursor | undefined; mode?: ApiKeyMode | undefined },
): Promise<{ keys: ApiKeyInfo[]; more: boolean }> {
  const sellerId = canonicalUuid(sellerIdArg);
  if (!sellerId) return { keys: [], more: false };
  let query = handle.db
    .selectFrom('api_keys')
    .select(API_KEY_INFO_COLUMNS)
    .where('seller_id', '=', sellerId);
  // One mode's keys (the dashboard's test/live switch); both when omitted. A mode holds at most its key cap.
  if (mode) query = query.where('mode', '=', mode);
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]),
    );
  }
  const rows = await query.orderBy('created_at').orderBy('id').limit(limit + 1).execute();
  const keys = rows.slice(0, limit).map(apiKeyInfoOf);
  return { keys, more: rows.length > limit };
}
