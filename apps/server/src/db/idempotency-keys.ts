import type { DatabaseHandle } from './connect.js';

/**
 * Deletes idempotency records past their expiry, for all sellers; returns how many. Creates already ignore
 * (and replace) expired records, so this only keeps the table from growing; any process may run it.
 */
export async function purgeExpiredIdempotencyKeys(handle: DatabaseHandle, now = new Date()): Promise<number> {
  const result = await handle.db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
