import { randomBytes } from 'node:crypto';
import { newEventId, type Customer, type CustomerChange, type CustomerEvent } from '@customers-api/core';
import { loadOpenApi } from '../openapi-document.js';

/**
 * How a test event's customer id starts; 12 random hex digits follow, so every test event is about its own
 * customer (a test that is still being retried never holds up the next one, which the per-customer order would
 * do). Real customers get random UUIDs, so none has such an id: a receiver can tell a test event by it, and by
 * `data.sequence` 1 on an update, which a real update never has (the create is 1).
 */
export const TEST_EVENT_CUSTOMER_PREFIX = '00000000-0000-4000-8000-';

/** openapi.yaml's example each test event type is built from (a delete's customer: the created one's). */
const EXAMPLES = {
  'customer.created': 'CustomerCreatedEventAda',
  'customer.updated': 'CustomerUpdatedEventSuspended',
  'customer.deleted': 'CustomerCreatedEventAda',
} as const;

/** Whether a customer id is one of the test events'. */
export function isTestEventCustomerId(id: string): boolean {
  return id.startsWith(TEST_EVENT_CUSTOMER_PREFIX);
}

/**
 * The dashboard's "send test event", as a change for the outbox, of the chosen type: openapi.yaml's example
 * ("Ada was created"; "Ada was suspended", a `customer.updated` whose `changed_fields` is `[status]`; Ada
 * deleted) with a new event id, the current time and the seller's own id, about a customer that does not exist,
 * `data.sequence` 1. Acting on it (blocking Ada's sign-in) is harmless.
 *
 * @example
 * const event = customerEvent(testEventChange(sellerId, new Date())); // event.data.changed_fields: ['status']
 */
export function testEventChange(
  sellerId: string,
  now: Date,
  eventId = newEventId(),
  type: CustomerEvent['type'] = 'customer.updated',
  mode: CustomerChange['mode'] = 'live',
): CustomerChange {
  const name = EXAMPLES[type];
  const examples = (loadOpenApi().document.components as { examples?: Record<string, { value: unknown }> }).examples;
  const example = examples?.[name]?.value as { data: { customer: Customer } } | undefined;
  if (!example) throw new Error(`openapi.yaml lost its ${name} example, which test events are built from`);
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
    type,
    sellerId,
    mode,
    customerId: customer.id,
    sequence: 1,
    occurredAt: at,
    customer,
    ...(type === 'customer.updated' ? { previous: { ...customer, status: 'active' } } : {}),
  };
}
