import { newEventId, type CustomerUpdatedEvent } from '@customers-api/core';
import { loadOpenApi } from '../openapi-document.js';

/**
 * The customer id of every test event. Real customers get random (version 4) UUIDs from the store, so none
 * has this one: a receiver can tell a test event by it (and by `data.sequence` 1 on an update, which a real
 * update never has, since the create is 1).
 */
export const TEST_EVENT_CUSTOMER_ID = '00000000-0000-4000-8000-000000000000';

const EXAMPLE = 'CustomerUpdatedEventSuspended';

/**
 * The dashboard's "send test event": openapi.yaml's example "Ada was suspended" (a `customer.updated` with
 * `changed_fields: [status]`), with a new event id, the current time and the seller's own id, about a customer
 * that does not exist. Acting on it (blocking Ada's sign-in) is therefore harmless.
 *
 * @example
 * const event = testWebhookEvent(sellerId, new Date()); // event.data.customer.id === TEST_EVENT_CUSTOMER_ID
 */
export function testWebhookEvent(sellerId: string, now: Date, eventId = newEventId()): CustomerUpdatedEvent {
  const examples = (loadOpenApi().document.components as { examples?: Record<string, { value: unknown }> }).examples;
  const example = examples?.[EXAMPLE]?.value as CustomerUpdatedEvent | undefined;
  if (!example) throw new Error(`openapi.yaml lost its ${EXAMPLE} example, which test events are built from`);
  const at = now.toISOString();
  return {
    ...example,
    id: eventId,
    created_at: at,
    data: {
      ...example.data,
      customer: { ...example.data.customer, id: TEST_EVENT_CUSTOMER_ID, seller_id: sellerId, updated_at: at },
      sequence: 1,
    },
  };
}
