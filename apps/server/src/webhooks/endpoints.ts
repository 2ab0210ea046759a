import { randomUUID } from 'node:crypto';
import {
  CUSTOMER_EVENT_TYPES,
  duplicateUrlMessage,
  endpointLimitMessage,
  generateWebhookSecret,
  isEventId,
  LATEST_API_VERSION,
  openApiVersions,
  WEBHOOK_SECRET_ROTATION_OVERLAP_MS,
  normalizeWebhookUrl,
  webhookUrlProblem,
  type CustomerChange,
  type ApiVersion,
  type CustomerEvent,
} from '@customers-api/core';
import type { Mode } from '@customers-api/core';
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { customerToRow, fromJson, toIso, toIsoOrNull } from '../db/rows.js';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/schema.js';
import { canonicalUuid } from '../db/uuid.js';
import { writeTransaction } from '../db/write-transaction.js';
import { wakeHead } from './claim-plan.js';
import { DEFAULT_WEBHOOK_ENDPOINT_LIMIT } from './delivery-fairness.js';
import { descriptionProblem } from './endpoint-description.js';
import type { SecretBox } from './secret-box.js';

// A seller's webhook endpoints and their deliveries: every function is scoped by the seller (the dashboard passes
// the signed-in seller; the operator CLI first looks up the endpoint's owner). Secrets are sealed before they are
// stored and shown only in the answer of create and rotate.

export type CustomerEventType = CustomerEvent['type'];

/** An endpoint as listings show it: never its secret. */
export interface WebhookEndpoint {
  id: string;
  seller_id: string;
  url: string;
  events: CustomerEventType[];
  /** The seller's note on it; '' when none. */
  description: string;
  created_at: string;
  /** Whether a delivery to it was given up since its last success. */
  failing: boolean;
  failing_since: string | null;
  /** Whether it was disabled after failing for 5 days (nothing is sent to it until it is enabled again). */
  disabled: boolean;
  disabled_at: string | null;
  /** After a rotation: until when the previous secret still signs; null otherwise. */
  previous_secret_expires_at: string | null;
  /** The API version its events are written in (pinned at creation). */
  api_version: string;
}

/** The answer to a create: the endpoint and its secret, shown this once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

export interface NewWebhookEndpoint {
  url: string;
  /** Event types; every type when omitted. */
  events?: readonly string[] | undefined;
  /** The API version its events are rendered in; the seller's pinned version when omitted. */
  apiVersion?: string | undefined;
  /** The seller's note on it (endpoint-edits.ts checks it); '' when omitted. */
  description?: string | undefined;
}

export type CreateEndpointResult =
  | { kind: 'created'; endpoint: CreatedWebhookEndpoint }
  /** `message` starts with the property it is about (`url`, `events`, `api_version` or `description`). */
  | { kind: 'invalid'; property: 'url' | 'events' | 'api_version' | 'description'; message: string }
  /** The seller has as many endpoints as its cap allows (`limit`); nothing was created. */
  | { kind: 'limit_reached'; limit: number; message: string }
  /** Another endpoint of the seller has this URL already (its receiver would get every event twice). */
  | { kind: 'duplicate_url'; message: string };

export interface EndpointOptions {
  /** Loopback and private URLs too: the operator's CLI, or a server run with --allow-private-webhooks. */
  allowPrivate?: boolean;
  now?: Date;
  /** The versions an endpoint may be pinned to (the app's versioning; tests: a fixture version); openapi.yaml's by default. */
  versions?: readonly ApiVersion[];
  /** Which of the seller's data the endpoint belongs to (the dashboard's test/live switch); live by default. */
  mode?: Mode;
}

/** One event sent (or to be sent) to one endpoint. */
export interface WebhookDelivery {
  event_id: string;
  event_type: CustomerEventType;
  customer_id: string;
  sequence: number;
  /**
   * pending: not tried yet; retrying: failed, tried again at next_attempt_at; failed: given up; skipped: never
   * tried and no longer waiting (written at the seller's cap of waiting deliveries, or given up with a disabled
   * endpoint before its first attempt), resendable like a failed one.
   */
  status: 'pending' | 'retrying' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  /** The receiver's last HTTP status, null when none came (refused, timed out). */
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

const ALL_EVENTS = `one or more of ${CUSTOMER_EVENT_TYPES.join(', ')}`;

/** The event types asked for, in the spec's order, or the problem (naming `events`). */
export function parseEventTypes(events: readonly string[] | undefined): CustomerEventType[] | string {
  if (events === undefined) return [...CUSTOMER_EVENT_TYPES];
  const unknown = events.find((type) => !(CUSTOMER_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) return `events must be ${ALL_EVENTS}; "${unknown}" is not an event type`;
  if (events.length === 0) return `events must be ${ALL_EVENTS}`;
  return CUSTOMER_EVENT_TYPES.filter((type) => events.includes(type));
}

/**
 * Registers an endpoint for the seller's events at its normalized URL (core's normalizeWebhookUrl), with a new
 * `whsec_` secret (returned once, stored sealed).
 *
 * @example
 * const result = await createEndpoint(handle, box, sellerId, { url: 'https://crm.example.com/hooks' });
 * if (result.kind === 'created') show(result.endpoint.secret);
 */
export async function createEndpoint(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  input: NewWebhookEndpoint,
  { allowPrivate = false, now = new Date(), versions, mode = 'live' }: EndpointOptions = {},
): Promise<CreateEndpointResult> {
  const urlProblem = webhookUrlProblem(input.url, { allowPrivate });
  if (urlProblem) return { kind: 'invalid', property: 'url', message: urlProblem };
  const events = parseEventTypes(input.events);
  if (typeof events === 'string') return { kind: 'invalid', property: 'events', message: events };
  const open = openApiVersions(() => now, versions);
  if (input.apiVersion !== undefined && !open.includes(input.apiVersion)) {
    return { kind: 'invalid', property: 'api_version', message: `api_version must be one of: ${open.join(', ')}` };
  }
  const descriptionIssue = input.description === undefined ? undefined : descriptionProblem(input.description);
  if (descriptionIssue) return { kind: 'invalid', property: 'description', message: descriptionIssue };
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const row = {
    id,
    seller_id: sellerId,
    // Its tenant: the dashboard's switch picks it (test keys use the API's own store).
    mode,
    url: normalizeWebhookUrl(input.url),
    event_types: JSON.stringify(events),
    secret: box.seal(secret, id),
    secret_key_id: box.keyId,
    previous_secret: null,
    previous_secret_expires_at: null,
    created_at: now.toISOString(),
    failing_since: null,
    timeouts_in_a_row: 0,
    attempts_failing_since: null,
    disabled_at: null,
    api_version: input.apiVersion ?? null,
    description: input.description ?? '',
  };
  // Checked, counted and inserted under the seller's lock (PostgreSQL) or the write lock (SQLite): two creates at
  // the cap, or at one URL, cannot both pass.
  const refused = await writeTransaction(handle, async (trx): Promise<'duplicate_url' | number | undefined> => {
    let seller = trx.selectFrom('sellers').select(['webhook_endpoint_limit', 'api_version']).where('id', '=', sellerId);
    if (handle.dialect === 'postgres') seller = seller.forNoKeyUpdate();
    const found = await seller.executeTakeFirst();
    const own = found?.webhook_endpoint_limit;
    // Pinned to the seller's version unless one was chosen (a seller pinned to nothing gets the latest).
    row.api_version ??= found?.api_version ?? LATEST_API_VERSION;
    if (await urlTakenIn(trx, sellerId, row.url, undefined, mode)) return 'duplicate_url';
    const cap = own ?? DEFAULT_WEBHOOK_ENDPOINT_LIMIT;
    const { count } = await trx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('seller_id', '=', sellerId)
      .where('mode', '=', mode)
      .executeTakeFirstOrThrow();
    if (Number(count) >= cap) return cap;
    await trx.insertInto('webhook_endpoints').values(row).execute();
    return undefined;
  });
  if (refused === 'duplicate_url') return { kind: 'duplicate_url', message: duplicateUrlMessage(row.url) };
  if (refused !== undefined) return { kind: 'limit_reached', limit: refused, message: endpointLimitMessage(refused) };
  return { kind: 'created', endpoint: { ...endpointFromRow(row), secret } };
}

// Worded once in core for every host (the public API's 409, the dashboard's, the CLI's error).
export { duplicateUrlMessage, endpointLimitMessage };

/**
 * Whether another of the seller's endpoints is at this normalized URL (`except`: the one being edited). Run it
 * inside the transaction that writes, under the seller's lock, so two writers cannot both pass.
 *
 * @example
 * if (await urlTakenIn(trx, sellerId, 'https://crm.example.com/hooks')) refuse();
 */
export async function urlTakenIn(
  db: Kysely<Database>,
  sellerId: string,
  url: string,
  except?: string,
  mode: Mode = 'live',
): Promise<boolean> {
  let query = db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('mode', '=', mode)
    .where('url', '=', url);
  if (except) query = query.where('id', '!=', except);
  return (await query.executeTakeFirst()) !== undefined;
}


/**
 * Enables a disabled endpoint again (the seller in the dashboard, the operator with `webhooks enable`): new changes
 * are sent to it, with all its slots and a fresh count of failing days. Its given-up deliveries stay given up
 * (resend brings one back). The endpoint as listed, or undefined when the seller has no such endpoint.
 *
 * @example
 * const endpoint = await enableEndpoint(handle, sellerId, endpointId);
 */
export async function enableEndpoint(handle: DatabaseHandle, sellerId: string, idArg: string): Promise<WebhookEndpoint | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  await handle.db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, attempts_failing_since: null, timeouts_in_a_row: 0 })
    .where('seller_id', '=', sellerId)
    .where('id', '=', id)
    .execute();
  // Claims left its queue head idle while disabled: deliveries resent meanwhile go now (db/delivery-heads.ts).
  await wakeHead(handle, sellerId, id);
  return findEndpoint(handle, sellerId, id);
}

/**
 * The seller's endpoints, oldest first: of one mode when `mode` is given (the dashboard), of both otherwise (the
 * operator's CLI).
 *
 * @example
 * for (const endpoint of await listEndpoints(handle, sellerId)) console.log(endpoint.url, endpoint.failing);
 */
export async function listEndpoints(handle: DatabaseHandle, sellerId: string, mode?: Mode): Promise<WebhookEndpoint[]> {
  const rows = await handle.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .$if(mode !== undefined, (qb) => qb.where('mode', '=', mode!))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(endpointFromRow);
}

/**
 * The seller's endpoint with this id, or undefined (also for an id that is not a UUID, and for one of the other
 * mode when `mode` is given).
 */
export async function findEndpoint(handle: DatabaseHandle, sellerId: string, idArg: string, mode?: Mode): Promise<WebhookEndpoint | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const row = await handle.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .where('id', '=', id)
    .$if(mode !== undefined, (qb) => qb.where('mode', '=', mode!))
    .executeTakeFirst();
  return row && endpointFromRow(row);
}

/** The seller owning an endpoint, for the operator's CLI (which names endpoints by id alone). */
export async function endpointOwner(handle: DatabaseHandle, idArg: string): Promise<string | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const row = await handle.db.selectFrom('webhook_endpoints').select('seller_id').where('id', '=', id).executeTakeFirst();
  return row?.seller_id;
}

/** Deletes the endpoint and its deliveries (pending ones are never sent); false when the seller has no such endpoint. */
export async function deleteEndpoint(handle: DatabaseHandle, sellerId: string, idArg: string): Promise<boolean> {
  const id = canonicalUuid(idArg);
  if (!id) return false;
  const result = await handle.db
    .deleteFrom('webhook_endpoints')
    .where('seller_id', '=', sellerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The answer to a rotation: the new secret (shown once) and until when the previous one still signs. */
export interface RotatedSecret {
  id: string;
  secret: string;
  previous_secret_expires_at: string;
}

/**
 * Gives the endpoint a new secret. Deliveries are signed with both for the next 24 hours (two signatures in
 * `webhook-signature`), so receivers can switch without losing events; a second rotation within that time
 * replaces the previous secret with the one being rotated out.
 *
 * @example
 * const rotated = await rotateEndpointSecret(handle, box, sellerId, endpointId);
 */
export async function rotateEndpointSecret(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  idArg: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<RotatedSecret | undefined> {
  const sealed = await sealedSecretOf(handle, box, sellerId, idArg);
  if (!sealed) return undefined;
  const { id, secret: current } = sealed;
  const secret = generateWebhookSecret();
  const expiresAt = new Date(now.getTime() + WEBHOOK_SECRET_ROTATION_OVERLAP_MS).toISOString();
  await handle.db
    .updateTable('webhook_endpoints')
    .set({ secret: box.seal(secret, id), previous_secret: current, previous_secret_expires_at: expiresAt })
    .where('seller_id', '=', sellerId)
    .where('id', '=', id)
    .execute();
  return { id, secret, previous_secret_expires_at: expiresAt };
}

/**
 * The endpoint's most recent deliveries, newest first; undefined when the seller has no such endpoint.
 *
 * @example
 * const deliveries = await listDeliveries(handle, sellerId, endpointId, { limit: 20 });
 */
export async function listDeliveries(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  { limit = 50 }: { limit?: number } = {},
): Promise<WebhookDelivery[] | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, endpointId);
  if (!endpoint) return undefined;
  const rows = await handle.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
    .selectAll('d')
    .select(['c.event_id', 'c.type'])
    .where('d.seller_id', '=', sellerId)
    .where('d.endpoint_id', '=', endpoint.id)
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(deliveryFromRow);
}

/**
 * Sends an event to the endpoint again, now, as a fresh delivery (attempts start over; a given-up one is no
 * longer given up). False when the seller has no such endpoint or the endpoint never had that event.
 *
 * @example
 * await resendDelivery(handle, sellerId, endpointId, 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e');
 */
export async function resendDelivery(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  eventId: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<boolean> {
  const endpoint = await findEndpoint(handle, sellerId, endpointId);
  if (!endpoint || !isEventId(eventId)) return false;
  const change = await handle.db
    .selectFrom('customer_changes')
    .select(['id', 'type', 'customer_id', 'sequence', 'occurred_at', 'mode'])
    .where('seller_id', '=', sellerId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!change) return false;
  const result = await handle.db
    .updateTable('webhook_deliveries')
    .set({ attempts: 0, next_attempt_at: now.toISOString(), given_up_at: null })
    .where('seller_id', '=', sellerId)
    .where('endpoint_id', '=', endpoint.id)
    .where('change_id', '=', change.id)
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return true;
  // No delivery: the endpoint was disabled when the event happened (the outbox triggers skip a disabled one), so
  // the event was `skipped` there (webhooks/event-states.ts). An enabled endpoint that receives its type and
  // existed then gets it now, as its first delivery.
  if (endpoint.disabled || !endpoint.events.includes(change.type as CustomerEventType)) return false;
  if (new Date(endpoint.created_at).getTime() > new Date(change.occurred_at).getTime()) return false;
  await handle.db
    .insertInto('webhook_deliveries')
    .values({
      change_id: change.id,
      endpoint_id: endpoint.id,
      seller_id: sellerId,
      customer_id: change.customer_id,
      sequence: change.sequence,
      attempts: 0,
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
      // The change's mode is its endpoint's (the outbox fans out within a mode).
      mode: change.mode === 'test' ? 'test' : 'live',
    })
    .execute();
  return true;
}

/**
 * Records a change that no customer write made (the dashboard's test event) for one endpoint only: its outbox row
 * and its one delivery, due now, in one transaction, so the delivery worker signs, sends, retries and lists it
 * like any other. The endpoint must be the change's seller's (the caller has looked it up).
 *
 * @example
 * const delivery = await queueChange(handle, endpoint.id, testEventChange(sellerId, now), now);
 */
export async function queueChange(
  handle: DatabaseHandle,
  endpointId: string,
  change: CustomerChange,
  now: Date,
): Promise<WebhookDelivery> {
  const at = now.toISOString();
  const delivery = {
    endpoint_id: endpointId,
    seller_id: change.sellerId,
    customer_id: change.customerId,
    sequence: change.sequence,
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
  };
  await writeTransaction(handle, async (trx) => {
    const { id } = await trx.insertInto('customer_changes').values(changeRow(change)).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('webhook_deliveries').values({ ...delivery, change_id: id, mode: change.mode }).execute();
  });
  return deliveryFromRow({
    ...delivery,
    event_id: change.eventId,
    type: change.type,
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    delivered_at: null,
  });
}

/** An outbox row as the triggers write one (db/outbox-triggers.ts): the customers rows as JSON snapshots. */
function changeRow(change: CustomerChange) {
  return {
    event_id: change.eventId,
    type: change.type,
    seller_id: change.sellerId,
    customer_id: change.customerId,
    sequence: change.sequence,
    occurred_at: change.occurredAt,
    customer: JSON.stringify(customerToRow(change.customer)),
    previous: change.previous ? JSON.stringify(customerToRow(change.previous)) : null,
  };
}

/**
 * The endpoint's current secret as stored (sealed) with its canonical id; undefined when the seller has no such
 * endpoint. Throws when this process's key did not seal it (the caller could neither open nor replace it safely).
 */
export async function sealedSecretOf(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  idArg: string,
): Promise<{ id: string; secret: string } | undefined> {
  const id = canonicalUuid(idArg);
  if (!id) return undefined;
  const row = await handle.db
    .selectFrom('webhook_endpoints')
    .select(['secret', 'secret_key_id'])
    .where('seller_id', '=', sellerId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.secret_key_id !== box.keyId) throw new Error(keyMismatch(row.secret_key_id, box.keyId));
  return { id, secret: row.secret };
}

/** The error for a secret sealed under another key than this process has. */
export function keyMismatch(sealedWith: string, have: string): string {
  return (
    `webhook secrets in this database are sealed with key ${sealedWith}, but this process has key ${have}: ` +
    'give every process the same key (WEBHOOK_SECRET_KEY or --secret-key-file)'
  );
}

/** An endpoints row as listings show it (never its secret). */
export function endpointFromRow(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  const failingSince = toIsoOrNull(row.failing_since);
  const disabledAt = toIsoOrNull(row.disabled_at);
  return {
    id: row.id,
    seller_id: row.seller_id,
    url: row.url,
    events: fromJson<CustomerEventType[]>(row.event_types),
    description: row.description,
    created_at: toIso(row.created_at),
    failing: failingSince !== null,
    failing_since: failingSince,
    disabled: disabledAt !== null,
    disabled_at: disabledAt,
    previous_secret_expires_at: toIsoOrNull(row.previous_secret_expires_at),
    api_version: row.api_version ?? LATEST_API_VERSION,
  };
}

type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'id' | 'change_id' | 'lease_until' | 'lease_owner' | 'given_up_at' | 'mode'>;

/** A delivery's state from its columns: waiting (pending, retrying), or done (delivered, failed, skipped). */
export function deliveryStatus(nextAttemptAt: string | null, deliveredAt: string | null, attempts: number): WebhookDelivery['status'] {
  if (nextAttemptAt !== null) return attempts === 0 ? 'pending' : 'retrying';
  if (deliveredAt !== null) return 'delivered';
  return attempts === 0 ? 'skipped' : 'failed';
}

/** A deliveries row joined with its change's `event_id` and `type`, as listings show it. */
export function deliveryFromRow(row: DeliveryRow & { event_id: string; type: string }): WebhookDelivery {
  const nextAttemptAt = toIsoOrNull(row.next_attempt_at);
  const deliveredAt = toIsoOrNull(row.delivered_at);
  const status = deliveryStatus(nextAttemptAt, deliveredAt, Number(row.attempts));
  return {
    event_id: row.event_id,
    event_type: row.type as CustomerEventType,
    customer_id: row.customer_id,
    sequence: Number(row.sequence),
    status,
    attempts: Number(row.attempts),
    last_status_code: row.last_status,
    last_error: row.last_error,
    last_attempt_at: toIsoOrNull(row.last_attempt_at),
    next_attempt_at: nextAttemptAt,
    delivered_at: deliveredAt,
    created_at: toIso(row.created_at),
  };
}
