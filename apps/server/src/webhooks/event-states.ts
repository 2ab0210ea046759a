import type { DatabaseHandle } from '../db/connect.js';
import { fromJson, toIso, toIsoOrNull } from '../db/rows.js';
import type { CustomerEventType } from './endpoints.js';

/** At most this many endpoints are listed per event (openapi.dashboard.yaml, listEvents), oldest first. */
export const EVENT_ENDPOINTS_LIMIT = 50;

export interface EventSearch {
  /** `evt_` and at least 4 lower-case hex digits: events whose id starts with it. */
  eventIdPrefix?: string;
  customerId?: string;
  /** The seller's live or test data (a tenancy boundary like the seller); live when omitted. */
  mode?: 'live' | 'test';
  beforeId?: number;
  limit: number;
}

export type EventDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed' | 'skipped';

/** The ids just past every id that starts with `prefix` (its last hex digit counted up), for an index range. */
function pastPrefix(prefix: string): string {
  const hex = prefix.slice('evt_'.length);
  const next = (BigInt(`0x${hex}`) + 1n).toString(16).padStart(hex.length, '0');
  // All f: every id above the prefix's length of hex digits ('g' sorts after every hex digit).
  return next.length > hex.length ? `evt_${'f'.repeat(hex.length)}g` : `evt_${next}`;
}

/**
 * One page of the seller's events, newest first, each with its state at every endpoint of the seller that
 * receives its type and existed when it happened: its delivery's state, or `skipped` without one (the endpoint
 * was disabled then: the outbox triggers make no delivery for a disabled endpoint). Reads `limit + 1` events
 * through (seller_id, id), (seller_id, event_id) or (seller_id, customer_id, id), the seller's endpoints (capped)
 * and the page's deliveries by change id.
 */
export async function listEventStates(handle: DatabaseHandle, sellerId: string, search: EventSearch) {
  let query = handle.db
    .selectFrom('customer_changes')
    .select(['id', 'event_id', 'type', 'customer_id', 'sequence', 'occurred_at'])
    .where('seller_id', '=', sellerId)
    .where('mode', '=', search.mode ?? 'live');
  if (search.eventIdPrefix !== undefined) {
    query = query.where('event_id', '>=', search.eventIdPrefix).where('event_id', '<', pastPrefix(search.eventIdPrefix));
  }
  if (search.customerId !== undefined) query = query.where('customer_id', '=', search.customerId);
  if (search.beforeId !== undefined) query = query.where('id', '<', search.beforeId);
  const changes = await query.orderBy('id', 'desc').limit(search.limit + 1).execute();
  const page = changes.slice(0, search.limit);
  const endpoints = page.length === 0 ? [] : await handle.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'event_types', 'created_at'])
    .where('seller_id', '=', sellerId)
    .where('mode', '=', search.mode ?? 'live')
    .orderBy('created_at')
    .orderBy('id')
    .limit(EVENT_ENDPOINTS_LIMIT)
    .execute();
  const deliveries = page.length === 0 || endpoints.length === 0 ? [] : await handle.db
    .selectFrom('webhook_deliveries')
    .select(['change_id', 'endpoint_id', 'attempts', 'next_attempt_at', 'delivered_at', 'last_status'])
    .where('seller_id', '=', sellerId)
    .where('change_id', 'in', page.map((change) => Number(change.id)))
    .execute();
  const byKey = new Map(deliveries.map((d) => [`${d.change_id}:${d.endpoint_id}`, d]));
  const events = page.map((change) => {
    const occurredAt = new Date(change.occurred_at).getTime();
    const states = [];
    for (const endpoint of endpoints) {
      const delivery = byKey.get(`${change.id}:${endpoint.id}`);
      if (!delivery) {
        const receives = fromJson<CustomerEventType[]>(endpoint.event_types).includes(change.type as CustomerEventType);
        if (!receives || new Date(endpoint.created_at).getTime() > occurredAt) continue;
      }
      const nextAttemptAt = toIsoOrNull(delivery?.next_attempt_at ?? null);
      const deliveredAt = toIsoOrNull(delivery?.delivered_at ?? null);
      const status: EventDeliveryStatus = !delivery
        ? 'skipped'
        : nextAttemptAt !== null
          ? Number(delivery.attempts) === 0 ? 'pending' : 'retrying'
          : deliveredAt !== null ? 'delivered' : 'failed';
      states.push({
        endpoint_id: endpoint.id,
        endpoint_url: endpoint.url,
        status,
        attempts: Number(delivery?.attempts ?? 0),
        last_status_code: delivery?.last_status ?? null,
        next_attempt_at: nextAttemptAt,
        delivered_at: deliveredAt,
      });
    }
    return {
      id: change.event_id,
      type: change.type as CustomerEventType,
      customer_id: change.customer_id,
      sequence: Number(change.sequence),
      occurred_at: toIso(change.occurred_at),
      deliveries: states,
    };
  });
  return { events, next_cursor: changes.length > search.limit ? String(page.at(-1)!.id) : null };
}
