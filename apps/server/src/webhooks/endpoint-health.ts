import { WEBHOOK_DISABLE_AFTER_MS } from '@customers-api/core';
import { sql, type Kysely } from 'kysely';
import { SERVER_ACTOR } from '../audit/audit-actions.js';
import { writeAuditRow } from '../audit/audit-log.js';
import type { Database } from '../db/schema.js';
import { giveUpWaiting } from './delivery-caps.js';

// What each attempt teaches about its endpoint (migration 009): timeouts in a row, which shrink its slots
// (delivery-fairness.ts); since when every attempt has failed, which disables it after core's
// WEBHOOK_DISABLE_AFTER_MS. A disabled endpoint gets no new deliveries (the outbox triggers skip it), its waiting
// ones are given up, and it stays so until the seller or the operator enables it (enableEndpoint).

/** How an attempt went, for the endpoint's health. */
export interface AttemptHealth {
  acknowledged: boolean;
  /** No answer within the timeout (a hanging receiver), as opposed to an answer or a quick refusal. */
  timedOut: boolean;
}

/**
 * Records one attempt's lesson about its endpoint, in the caller's transaction. Returns whether the endpoint is
 * disabled now (by this attempt or before it): the caller then gives the delivery up instead of retrying it.
 *
 * @example
 * const { disabled } = await recordEndpointHealth(trx, endpointId, { acknowledged: false, timedOut: true }, now);
 */
export async function recordEndpointHealth(
  trx: Kysely<Database>,
  endpointId: string,
  { acknowledged, timedOut }: AttemptHealth,
  now: Date,
): Promise<{ disabled: boolean }> {
  const at = now.toISOString();
  if (acknowledged) {
    // Usually a no-op on a healthy endpoint: the WHERE finds nothing to change.
    await trx
      .updateTable('webhook_endpoints')
      .set({ timeouts_in_a_row: 0, attempts_failing_since: null, failing_since: null })
      .where('id', '=', endpointId)
      .where((eb) => eb.or([eb('timeouts_in_a_row', '!=', 0), eb('attempts_failing_since', 'is not', null), eb('failing_since', 'is not', null)]))
      .execute();
    return { disabled: false };
  }
  await trx
    .updateTable('webhook_endpoints')
    .set({
      timeouts_in_a_row: timedOut ? sql<number>`timeouts_in_a_row + 1` : 0,
      attempts_failing_since: sql<string>`coalesce(attempts_failing_since, ${at})`,
    })
    .where('id', '=', endpointId)
    .execute();
  const cutoff = new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS).toISOString();
  const [disabling] = await trx
    .updateTable('webhook_endpoints')
    .set({ disabled_at: at })
    .where('id', '=', endpointId)
    .where('disabled_at', 'is', null)
    .where('attempts_failing_since', '<=', cutoff)
    .execute();
  const endpoint = await trx.selectFrom('webhook_endpoints').select(['disabled_at', 'seller_id']).where('id', '=', endpointId).executeTakeFirst();
  if (!endpoint || endpoint.disabled_at === null) return { disabled: false };
  // Disabled by this attempt: the server did it, and the audit log says so in the same transaction.
  if (disabling && Number(disabling.numUpdatedRows) > 0) {
    await writeAuditRow(trx, SERVER_ACTOR, { sellerId: endpoint.seller_id, action: 'webhook_endpoint.disabled', targetId: endpointId }, now);
  }
  // Nothing more goes to it: its waiting deliveries are given up (resend brings one back once it is enabled).
  // (A batch now; claims give up the rest, webhooks/delivery-caps.ts.)
  await giveUpWaiting(trx, endpointId, { disabledAt: new Date(endpoint.disabled_at).toISOString(), at });
  return { disabled: true };
}
