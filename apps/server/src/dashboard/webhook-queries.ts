import { CUSTOMER_EVENT_TYPES, errors, isEventId } from '@customers-api/core';
import { isEventType, parseDeliveryCursor, type DeliveryPageQuery, type DeliveryState } from '../webhooks/delivery-pages.js';
import type { CustomerEventType, WebhookEndpoint } from '../webhooks/endpoints.js';

// The query strings of the endpoint page's reads: a value that is not one of the allowed ones is core's 400
// naming the parameter (never ignored, so a mistyped filter does not look like an empty result).

const STATES: readonly DeliveryState[] = ['all', 'failed', 'succeeded'];
/** The most deliveries a page holds (and the default). */
export const DELIVERY_PAGE_LIMIT = 50;

type Query = Record<string, unknown>;

/** One value of a parameter (a repeated one is refused), or undefined when absent. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw errors.badRequest(`${name} must be given once`, name);
  return value;
}

/**
 * `state`, `event_type`, `event_id`, `cursor` and `limit` of the deliveries list.
 *
 * @example
 * parseDeliveryQuery({ state: 'failed', limit: '20' }); // { state: 'failed', limit: 20 }
 */
export function parseDeliveryQuery(query: Query): DeliveryPageQuery {
  const parsed: DeliveryPageQuery = { limit: DELIVERY_PAGE_LIMIT };
  const state = single(query, 'state');
  if (state !== undefined) {
    if (!(STATES as readonly string[]).includes(state)) throw errors.badRequest(`state must be one of ${STATES.join(', ')}`, 'state');
    parsed.state = state as DeliveryState;
  }
  const eventType = single(query, 'event_type');
  if (eventType !== undefined) parsed.eventType = eventTypeOf(eventType);
  const eventId = single(query, 'event_id');
  if (eventId !== undefined) {
    if (!isEventId(eventId)) throw errors.badRequest('event_id must be an event id (evt_ and 32 hex digits)', 'event_id');
    parsed.eventId = eventId;
  }
  const cursor = single(query, 'cursor');
  if (cursor !== undefined) {
    if (parseDeliveryCursor(cursor) === undefined) throw errors.badRequest("cursor must be a previous page's next_cursor", 'cursor');
    parsed.cursor = cursor;
  }
  const limit = single(query, 'limit');
  if (limit !== undefined) {
    if (!/^[1-9][0-9]?$/.test(limit) || Number(limit) > DELIVERY_PAGE_LIMIT) {
      throw errors.badRequest(`limit must be an integer from 1 to ${DELIVERY_PAGE_LIMIT}`, 'limit');
    }
    parsed.limit = Number(limit);
  }
  return parsed;
}

function eventTypeOf(value: string): CustomerEventType {
  if (!isEventType(value)) throw errors.badRequest(`event_type must be one of ${CUSTOMER_EVENT_TYPES.join(', ')}`, 'event_type');
  return value;
}

/**
 * The test event's type: `event_type` when the endpoint receives it (else a 400 naming its types), or by default
 * `customer.updated` when it receives that, else its first type.
 *
 * @example
 * testEventType({}, endpoint); // 'customer.updated'
 */
export function testEventType(query: Query, endpoint: Pick<WebhookEndpoint, 'events'>): CustomerEventType {
  const asked = single(query, 'event_type');
  if (asked === undefined) return endpoint.events.includes('customer.updated') ? 'customer.updated' : endpoint.events[0]!;
  const type = eventTypeOf(asked);
  if (!endpoint.events.includes(type)) {
    throw errors.badRequest(`event_type must be one this endpoint receives: ${endpoint.events.join(', ')}`, 'event_type');
  }
  return type;
}
