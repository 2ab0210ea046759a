import { randomBytes } from 'node:crypto';
import { newEventId, type Customer, type CustomerChange, type CustomerUpdatedEvent } from '@customers-api/core';
import { loadOpenApi } from '../openapi-document.js';

/**
 * How a test event's customer id starts; 12 random hex digits follow, so every test event is about its own
 * customer (a test that is still being retried never holds up the next one, which the per-customer order would
 * do). Real customers get random UUIDs, so none has such an id: a receiver can tell a test event by it, and by
 * `data.sequence` 1 on an update, which a real update never has (the create is 1).
 */
export const TEST_EVENT_CUSTOMER_PREFIX = '00000000-0000-4000-8000-';

const EXAMPLE = 'CustomerUpdatedEventSuspended';

/** Whether a customer id is one of the test events'. */
export function isTestEventCustomerId(id: string): boolean {
  return id.startsWith(TEST_EVENT_CUSTOMER_PREFIX);
}

/**
 * The dashboard's "send test event", as a change for the outbox: openapi.yaml's example "Ada was suspended"
 * (a `customer.updated` whose `changed_fields` is `[status]`), with a new event id, the current time and the
 * seller's own id, about a customer that does not exist. Acting on it (blocking Ada's sign-in) is harmless.
 *
 * @example
 * const event = customerEvent(testEventChange(sellerId, new Date())); // event.data.changed_fields: ['status']
 */
export function testEventChange(sellerId: string, now: Date, eventId = newEventId()): CustomerChange {
  const examples = (loadOpenApi().document.components as { examples?: Record<string, { value: unknown }> }).examples;
  const example = examples?.[EXAMPLE]?.value as CustomerUpdatedEvent | undefined;
  if (!example) throw new Error(`openapi.yaml lost its ${EXAMPLE} example, which test events are built from`);
  const at = now.toISOString();
  const customer: Customer = {
    ...example.data.customer,
    id: TEST_EVENT_CUSTOMER_PREFIX + randomBytes(6).toString('hex'),
    seller_id: sellerId,
    created_at: at,
    updated_at: at,
  };
  return {
    eventId,
    type: 'customer.updated',
    sellerId,
    customerId: customer.id,
    sequence: 1,
    occurredAt: at,
    customer,
    previous: { ...customer, status: 'active' },
  };
}
