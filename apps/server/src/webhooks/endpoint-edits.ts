import { normalizeWebhookUrl, webhookUrlProblem, type Mode } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { lockSeller } from '../db/sellers.js';
import { canonicalUuid } from '../db/uuid.js';
import { writeTransaction } from '../db/write-transaction.js';
import { giveUpWaiting, RESEND_FAILED_LIMIT } from './delivery-caps.js';
import { descriptionProblem } from './endpoint-description.js';
import { failedSince } from './failed-since.js';
import {
  duplicateUrlMessage,
  endpointFromRow,
  findEndpoint,
  parseEventTypes,
  sealedSecretOf,
  urlTakenIn,
  type WebhookEndpoint,
} from './endpoints.js';
import type { SecretBox } from './secret-box.js';

// What the seller changes on an endpoint after creating it (the dashboard's endpoint page): its URL, event types
// and description under the creation rules, disabled or not, its secret shown again, its failed deliveries sent
// again. Every function is scoped by the seller: another seller's endpoint is a missing one.

export interface EndpointEdit {
  url?: string | undefined;
  events?: readonly string[] | undefined;
  description?: string | undefined;
}

export type EditEndpointResult =
  | { kind: 'updated'; endpoint: WebhookEndpoint }
  | { kind: 'not_found' }
  /** `message` starts with the property it is about. */
  | { kind: 'invalid'; property: 'url' | 'events' | 'description'; message: string }
  /** Another endpoint of the seller has this URL already. */
  | { kind: 'duplicate_url'; message: string };

/**
 * Changes the endpoint's URL, event types and/or description (what is omitted stays), under the rules of
 * creation: core's URL rule (public addresses unless `allowPrivate`), known event types, and no other endpoint of
 * the seller at the same URL. Deliveries already queued keep going to the endpoint (at its new URL); a type
 * dropped gets no new events.
 *
 * @example
 * const result = await editEndpoint(handle, sellerId, endpointId, { events: ['customer.deleted'] });
 */
export async function editEndpoint(
  handle: DatabaseHandle,
  sellerId: string,
  idArg: string,
  edit: EndpointEdit,
  { allowPrivate = false, mode }: { allowPrivate?: boolean; mode?: Mode } = {},
): Promise<EditEndpointResult> {
  // `mode` (the dashboard's switch): an endpoint of the other mode is missing, and URLs are unique within the mode.
  const endpoint = await findEndpoint(handle, sellerId, idArg, mode);
  if (!endpoint) return { kind: 'not_found' };
  const changes: { url?: string; event_types?: string; description?: string } = {};
  if (edit.url !== undefined) {
    const problem = webhookUrlProblem(edit.url, { allowPrivate });
    if (problem) return { kind: 'invalid', property: 'url', message: problem };
    changes.url = normalizeWebhookUrl(edit.url);
  }
  if (edit.events !== undefined) {
    const events = parseEventTypes(edit.events);
    if (typeof events === 'string') return { kind: 'invalid', property: 'events', message: events };
    changes.event_types = JSON.stringify(events);
  }
  if (edit.description !== undefined) {
    const problem = descriptionProblem(edit.description);
    if (problem) return { kind: 'invalid', property: 'description', message: problem };
    changes.description = edit.description;
  }
  if (Object.keys(changes).length === 0) return { kind: 'updated', endpoint };
  const { url } = changes;
  // The URL checked and written under the seller's lock (PostgreSQL) or the write lock (SQLite), as creation
  // does: two edits (or an edit and a create) cannot both take one URL.
  const row = await writeTransaction(handle, async (trx) => {
    if (url !== undefined) {
      await lockSeller(handle, trx, sellerId);
      if (await urlTakenIn(trx, sellerId, url, endpoint.id, mode)) return 'duplicate_url' as const;
    }
    return trx
      .updateTable('webhook_endpoints')
      .set(changes)
      .where('seller_id', '=', sellerId)
      .where('id', '=', endpoint.id)
      .returningAll()
      .executeTakeFirst();
  });
  if (row === 'duplicate_url') return { kind: 'duplicate_url', message: duplicateUrlMessage(url!) };
  return row ? { kind: 'updated', endpoint: endpointFromRow(row) } : { kind: 'not_found' };
}

/**
 * Disables the endpoint by the seller's choice, as the server does after 5 days of failures: nothing new is
 * queued for it (the outbox triggers skip disabled endpoints) and its waiting deliveries are given up, in one
 * transaction; once it is enabled again (enableEndpoint), "resend all failed" or a resend brings them back.
 * Disabling a disabled one changes nothing. Undefined when the seller has no such endpoint.
 *
 * @example
 * const endpoint = await disableEndpoint(handle, sellerId, endpointId, new Date());
 */
export async function disableEndpoint(handle: DatabaseHandle, sellerId: string, idArg: string, now: Date): Promise<WebhookEndpoint | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const at = now.toISOString();
  await writeTransaction(handle, async (trx) => {
    const disabled = await trx
      .updateTable('webhook_endpoints')
      .set({ disabled_at: at })
      .where('seller_id', '=', sellerId)
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (disabled.numUpdatedRows === 0n) return;
    // An attempt in flight is given up when it is recorded (endpoint-health.ts sees the endpoint disabled). One
    // batch now; when more wait, the endpoint's queue head is due so claims give up the rest, a batch at a time.
    if (await giveUpWaiting(trx, id, { disabledAt: at, at })) {
      await trx.updateTable('webhook_delivery_heads').set((eb) => ({ due_at: at, wakes: eb('wakes', '+', 1) })).where('endpoint_id', '=', id).execute();
    }
  });
  return findEndpoint(handle, sellerId, id);
}

/**
 * The endpoint's current signing secret, opened on demand (the caller audits it); undefined when the seller has
 * no such endpoint. Throws when this process's key did not seal it.
 *
 * @example
 * const secret = await revealEndpointSecret(handle, box, sellerId, endpointId);
 */
export async function revealEndpointSecret(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  idArg: string,
): Promise<{ id: string; secret: string } | undefined> {
  const sealed = await sealedSecretOf(handle, box, sellerId, idArg);
  return sealed && { id: sealed.id, secret: box.open(sealed.secret, sealed.id) };
}

/**
 * Sends deliveries of the endpoint that were given up (status `failed`) and queued at or after `since` again, now,
 * as a resend does (attempts from zero): each once, through the same fair queue as any delivery, the oldest first
 * and at most `limit` (RESEND_FAILED_LIMIT) per call; `more` says whether others remain (the same call again sends
 * them). Undefined when the seller has no such endpoint.
 *
 * @example
 * const { resent, more } = (await resendFailedSince(handle, sellerId, endpointId, new Date(Date.now() - 86_400_000), new Date()))!;
 */
export async function resendFailedSince(
  handle: DatabaseHandle,
  sellerId: string,
  idArg: string,
  since: Date,
  now: Date,
  { limit = RESEND_FAILED_LIMIT }: { limit?: number } = {},
): Promise<{ id: string; resent: number; more: boolean } | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, idArg);
  if (!endpoint) return undefined;
  // One page, whatever failed before (failed-since.ts: the same query counts them for the page).
  const failed = await failedSince(handle, sellerId, endpoint.id, since, limit + 1);
  const page = failed.slice(0, limit).map((row) => row.id);
  if (page.length === 0) return { id: endpoint.id, resent: 0, more: false };
  const result = await handle.db
    .updateTable('webhook_deliveries')
    .set({ attempts: 0, next_attempt_at: now.toISOString(), given_up_at: null })
    .where('seller_id', '=', sellerId)
    .where('id', 'in', page)
    .where('next_attempt_at', 'is', null)
    .executeTakeFirst();
  return { id: endpoint.id, resent: Number(result.numUpdatedRows), more: failed.length > limit };
}
