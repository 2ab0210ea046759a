import type { ApiKeyMode } from '@customers-api/core';
import type { DatabaseHandle } from './connect.js';

/**
 * The seller's own key cap (null: the server's default) read under the seller's row lock on PostgreSQL (SQLite's
 * single writer serialises on its own), and how many of its keys have not expired (revoked ones included: they are
 * rows until deleted) in `mode`: each mode has its own cap (issue 38), so test keys never crowd out live ones. Run it in the transaction that inserts, so two creates at the cap cannot both pass.
 *
 * @example
 * const { keyLimit, unexpired } = await lockedKeyCount(trx, sellerId, now, 'live');
 */
export async function lockedKeyCount(
  handle: DatabaseHandle,
  sellerId: string,
  now: Date,
  mode: ApiKeyMode = 'live',
): Promise<{ keyLimit: number | null; unexpired: number }> {
  let seller = handle.db.selectFrom('sellers').select('key_limit').where('id', '=', sellerId);
  if (handle.dialect === 'postgres') seller = seller.forNoKeyUpdate();
  const found = await seller.executeTakeFirst();
  const { count } = await handle.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('seller_id', '=', sellerId)
    .where('mode', '=', mode)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now.toISOString())]))
    .executeTakeFirstOrThrow();
  return { keyLimit: found?.key_limit ?? null, unexpired: Number(count) };
}
