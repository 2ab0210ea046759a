import type { CustomerEvent, Mode } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { findEndpoint, listEndpoints, queueChange, type WebhookDelivery, type WebhookEndpoint } from '../webhooks/endpoints.js';
import { testEventChange } from './test-event.js';

// The dashboard's reads of the endpoint repository (webhooks/endpoints.ts), minus the seller id (the session's
// own), and the test event, which only the dashboard sends. Changes go through core's webhook service
// (dashboard-webhook-service.ts).

/** An endpoint as the dashboard lists it: never its secret. */
export type DashboardEndpoint = Omit<WebhookEndpoint, 'seller_id'>;

function forDashboard<T extends WebhookEndpoint>(endpoint: T): Omit<T, 'seller_id'> {
  const { seller_id: _seller, ...rest } = endpoint;
  return rest;
}

/** The seller's endpoints of one mode (the dashboard's test/live switch), oldest first. */
export async function listSellerEndpoints(handle: DatabaseHandle, sellerId: string, mode: Mode = 'live'): Promise<DashboardEndpoint[]> {
  return (await listEndpoints(handle, sellerId, mode)).map(forDashboard);
}

/**
 * Queues a test event ({@link testEventChange}) of the type `type` picks for the endpoint (it may throw a 400)
 * for one of the seller's endpoints only: an outbox row and its
 * one delivery, due now, in one transaction, so the delivery worker signs, sends, retries and lists it like any
 * other. Undefined when the seller has no such endpoint.
 */
export async function sendSellerTestEvent(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  now: Date,
  type: (endpoint: WebhookEndpoint) => CustomerEvent['type'] = () => 'customer.updated',
  mode: Mode = 'live',
): Promise<WebhookDelivery | undefined> {
  // An endpoint of the mode only, and the event of that mode (a test endpoint gets a test event, `livemode: false`).
  const endpoint = await findEndpoint(handle, sellerId, endpointId, mode);
  if (!endpoint) return undefined;
  return queueChange(handle, endpoint.id, testEventChange(sellerId, now, undefined, type(endpoint), mode), now);
}
