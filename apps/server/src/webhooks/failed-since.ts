import type { DatabaseHandle } from '../db/connect.js';
import { RESEND_FAILED_LIMIT } from './delivery-caps.js';
import { findEndpoint } from './endpoints.js';

// "Resend all failed": the deliveries it picks, written once for the resend and for the count the page shows
// before it asks (the count is the resend's own query, so the two never disagree).

/**
 * Ids of the endpoint's deliveries given up (status `failed`) and queued at or after `since`, the oldest first, at
 * most `limit`: through the partial index of failed deliveries (migration 016), one page whatever failed before.
 */
export function failedSince(handle: DatabaseHandle, sellerId: string, endpointId: string, since: Date, limit: number) {
  return handle.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('endpoint_id', '=', endpointId)
    .where('next_attempt_at', 'is', null)
    .where('delivered_at', 'is', null)
    .where('created_at', '>=', since.toISOString())
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * How many deliveries a resend since `since` would send now: at most `limit` (RESEND_FAILED_LIMIT), reading at most
 * `limit + 1` rows; `more` when others remain past them. Undefined when the seller has no such endpoint.
 *
 * @example
 * const { count, more } = (await countFailedSince(handle, sellerId, endpointId, new Date(Date.now() - 86_400_000)))!;
 */
export async function countFailedSince(
  handle: DatabaseHandle,
  sellerId: string,
  idArg: string,
  since: Date,
  { limit = RESEND_FAILED_LIMIT }: { limit?: number } = {},
): Promise<{ count: number; more: boolean } | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, idArg);
  if (!endpoint) return undefined;
  const rows = await failedSince(handle, sellerId, endpoint.id, since, limit + 1);
  return { count: Math.min(rows.length, limit), more: rows.length > limit };
}
