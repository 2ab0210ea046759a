import { CUSTOMER_EVENT_TYPES, customerEvent, eventInVersion, isEventId } from '@customers-api/core';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import { fromJson, toIso } from '../db/rows.js';
import { changeFromRow } from './changes.js';
import { deliveryFromRow, findEndpoint, type CustomerEventType, type WebhookDelivery } from './endpoints.js';
import { USER_AGENT } from './send-webhook.js';

// What the dashboard's endpoint page reads about deliveries: pages of them filtered by state, event type or event
// id; one delivery with its request and every kept attempt; the endpoint's success rate. Every read is scoped by
// the seller and the endpoint, so another seller's delivery is as missing as one that never existed.

/** Which deliveries a page holds: all, the ones whose attempts failed so far (retrying or given up), or delivered. */
export type DeliveryState = 'all' | 'failed' | 'succeeded';

export interface DeliveryPageQuery {
  state?: DeliveryState | undefined;
  eventType?: CustomerEventType | undefined;
  /** Exactly this event (search by id). */
  eventId?: string | undefined;
  /** The previous page's `next_cursor`. */
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** A cursor as the repository takes it: the last listed delivery's row id, or undefined when it is not one. */
export function parseDeliveryCursor(cursor: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(cursor) ? Number(cursor) : undefined;
}

/**
 * One page of the endpoint's deliveries, newest first; undefined when the seller has no such endpoint.
 *
 * @example
 * const page = await listDeliveryPage(handle, sellerId, endpointId, { state: 'failed', limit: 20 });
 */
export async function listDeliveryPage(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  { state = 'all', eventType, eventId, cursor, limit = 20 }: DeliveryPageQuery = {},
): Promise<DeliveryPage | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, endpointId);
  if (!endpoint) return undefined;
  let query = handle.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
    .selectAll('d')
    .select(['c.event_id', 'c.type'])
    .where('d.seller_id', '=', sellerId)
    .where('d.endpoint_id', '=', endpoint.id);
  if (state === 'succeeded') query = query.where('d.delivered_at', 'is not', null);
  if (state === 'failed') query = query.where('d.delivered_at', 'is', null).where('d.attempts', '>', 0);
  if (eventType) query = query.where('c.type', '=', eventType);
  if (eventId !== undefined) query = query.where('c.event_id', '=', eventId);
  const after = cursor === undefined ? undefined : parseDeliveryCursor(cursor);
  if (after !== undefined) query = query.where('d.id', '<', after);
  const rows = await query.orderBy('d.id', 'desc').limit(limit + 1).execute();
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  return { deliveries: shown.map(deliveryFromRow), next_cursor: more ? String(shown.at(-1)!.id) : null };
}

/** One kept attempt (migration 014). */
export interface DeliveryAttempt {
  /** 1 for the first attempt since the delivery was queued or last resent. */
  attempt: number;
  attempted_at: string;
  duration_ms: number;
  /** The receiver's status; null when none came. */
  status_code: number | null;
  /** Why no usable answer came, in plain language; null when a status came. */
  error: string | null;
  /** The first 2 KiB of the receiver's answer. */
  response_body: string | null;
  /** The answer's headers, bounded and redacted (migration 031); null when none were kept. */
  response_headers: Record<string, string> | null;
}

/** A delivery with its request as sent (last signed) and its attempts, newest first. */
export interface WebhookDeliveryDetail extends WebhookDelivery {
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string };
  attempts_made: DeliveryAttempt[];
}

/** The most attempts a detail shows (newest first): more than core's retries plus a few resends. */
const DETAIL_ATTEMPTS = 50;

/**
 * The endpoint's delivery of one event with the request as it was last sent (its signature header, never a
 * secret; before the first attempt, the headers it will have minus the signing ones) and every kept attempt;
 * undefined when the seller's endpoint never had that event.
 *
 * @example
 * const detail = await findDeliveryDetail(handle, sellerId, endpointId, 'evt_5b0f6c1e9a8d4f2b8c7e6d5a4b3c2d1e');
 */
export async function findDeliveryDetail(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  eventId: string,
  now = new Date(),
): Promise<WebhookDeliveryDetail | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, endpointId);
  if (!endpoint || !isEventId(eventId)) return undefined;
  const row = await handle.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
    .selectAll('c')
    .select([
      'd.id as delivery_id',
      'd.endpoint_id',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_attempt_at',
      'd.last_status',
      'd.last_error',
      'd.delivered_at',
      'd.created_at as queued_at',
    ])
    .where('d.seller_id', '=', sellerId)
    .where('d.endpoint_id', '=', endpoint.id)
    .where('c.event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) return undefined;
  const attempts = await handle.db
    .selectFrom('webhook_delivery_attempts')
    .select(['attempt', 'attempted_at', 'duration_ms', 'status_code', 'error', 'response_body', 'response_headers', 'signature'])
    .where('delivery_id', '=', row.delivery_id)
    .orderBy('id', 'desc')
    .limit(DETAIL_ATTEMPTS)
    .execute();
  const { delivery_id: _id, queued_at, attempts: _count, endpoint_id: _endpoint, next_attempt_at: _next, last_attempt_at: _last,
    last_status: _status, last_error: _error, delivered_at: _delivered, ...change } = row;
  const delivery = deliveryFromRow({ ...row, created_at: queued_at });
  // As the worker sends it: in the endpoint's pinned version, which `customers-version` names.
  const event = eventInVersion(customerEvent(changeFromRow(change)), endpoint.api_version, { now: () => now });
  const body = JSON.stringify(event.body);
  const last = attempts[0];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'user-agent': USER_AGENT,
    'customers-version': event.version,
    'webhook-id': row.event_id,
    ...(last?.signature
      ? { 'webhook-timestamp': String(Math.floor(Date.parse(toIso(last.attempted_at)) / 1000)), 'webhook-signature': last.signature }
      : {}),
  };
  return {
    ...delivery,
    request: { method: 'POST', url: endpoint.url, headers, body },
    attempts_made: attempts.map(({ signature: _signature, attempted_at, response_headers, ...attempt }) => ({
      ...attempt,
      response_headers: response_headers === null ? null : fromJson<Record<string, string>>(response_headers),
      attempt: Number(attempt.attempt),
      duration_ms: Number(attempt.duration_ms),
      attempted_at: toIso(attempted_at),
    })),
  };
}

/** The endpoint's share of acknowledged attempts over the last 24 hours and 7 days; null where none were made. */
export interface SuccessRates {
  last_24h: { attempts: number; succeeded: number; rate: number | null };
  last_7d: { attempts: number; succeeded: number; rate: number | null };
}

/**
 * Counts the endpoint's kept attempts in both windows (one aggregate over an index range), 2xx as succeeded. The caller has
 * checked the endpoint is the seller's.
 *
 * @example
 * const { last_24h } = await endpointSuccessRates(handle, endpoint.id, new Date());
 */
export async function endpointSuccessRates(handle: DatabaseHandle, endpointId: string, now: Date): Promise<SuccessRates> {
  const day = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  const week = new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000).toISOString();
  const ok = sql`status_code >= 200 and status_code < 300`;
  const counts = await handle.db
    .selectFrom('webhook_delivery_attempts')
    .select([
      sql<number | string>`count(*)`.as('week'),
      sql<number | string | null>`sum(case when ${ok} then 1 else 0 end)`.as('week_ok'),
      sql<number | string | null>`sum(case when attempted_at >= ${day} then 1 else 0 end)`.as('day'),
      sql<number | string | null>`sum(case when attempted_at >= ${day} and ${ok} then 1 else 0 end)`.as('day_ok'),
    ])
    .where('endpoint_id', '=', endpointId)
    .where('attempted_at', '>=', week)
    .executeTakeFirstOrThrow();
  const window = (attempts: number, succeeded: number) => ({ attempts, succeeded, rate: attempts === 0 ? null : succeeded / attempts });
  return {
    last_24h: window(Number(counts.day ?? 0), Number(counts.day_ok ?? 0)),
    last_7d: window(Number(counts.week), Number(counts.week_ok ?? 0)),
  };
}

/** Whether a string is one of the event types (a query's `event_type`). */
export function isEventType(value: string): value is CustomerEventType {
  return (CUSTOMER_EVENT_TYPES as readonly string[]).includes(value);
}
