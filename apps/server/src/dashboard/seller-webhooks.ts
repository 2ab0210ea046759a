import { errors, type CustomerChange } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { customerToRow } from '../db/rows.js';
import { writeTransaction } from '../db/write-transaction.js';
import {
  createEndpoint,
  findEndpoint,
  listEndpoints,
  type CreatedWebhookEndpoint,
  type NewWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../webhooks/endpoints.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { testEventChange } from './test-event.js';

// The dashboard's view of the endpoint repository (webhooks/endpoints.ts): the same rules and shapes, minus the
// seller id (the session's own), plus the test event, which only the dashboard sends.

/** An endpoint as the dashboard lists it: never its secret. */
export type DashboardEndpoint = Omit<WebhookEndpoint, 'seller_id'>;

function forDashboard<T extends WebhookEndpoint>(endpoint: T): Omit<T, 'seller_id'> {
  const { seller_id: _seller, ...rest } = endpoint;
  return rest;
}

export async function listSellerEndpoints(handle: DatabaseHandle, sellerId: string): Promise<DashboardEndpoint[]> {
  return (await listEndpoints(handle, sellerId)).map(forDashboard);
}

/** Registers an endpoint, or throws core's 400 with the repository's message (naming `url` or `events`). */
export async function createSellerEndpoint(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  input: NewWebhookEndpoint,
  options: { allowPrivate: boolean; now: Date },
): Promise<Omit<CreatedWebhookEndpoint, 'seller_id'>> {
  const result = await createEndpoint(handle, box, sellerId, input, options);
  if (result.kind === 'invalid') throw errors.badRequest(result.message);
  return forDashboard(result.endpoint);
}

/**
 * Queues a test event ({@link testEventChange}) for one of the seller's endpoints only: an outbox row and its
 * one delivery, due now, in one transaction, so the delivery worker signs, sends, retries and lists it like any
 * other. Undefined when the seller has no such endpoint.
 */
export async function sendSellerTestEvent(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  now: Date,
): Promise<WebhookDelivery | undefined> {
  const endpoint = await findEndpoint(handle, sellerId, endpointId);
  if (!endpoint) return undefined;
  const change = testEventChange(sellerId, now);
  const at = now.toISOString();
  await writeTransaction(handle, async (trx) => {
    const { id } = await trx
      .insertInto('customer_changes')
      .values(changeRow(change))
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('webhook_deliveries')
      .values({
        change_id: id,
        endpoint_id: endpoint.id,
        seller_id: sellerId,
        customer_id: change.customerId,
        sequence: change.sequence,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })
      .execute();
  });
  return {
    event_id: change.eventId,
    event_type: change.type,
    customer_id: change.customerId,
    sequence: change.sequence,
    status: 'pending',
    attempts: 0,
    last_status_code: null,
    last_error: null,
    last_attempt_at: null,
    next_attempt_at: at,
    delivered_at: null,
    created_at: at,
  };
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
