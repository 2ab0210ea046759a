import { errors, type CustomerEvent, type Mode } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import {
  createEndpoint,
  findEndpoint,
  listEndpoints,
  queueChange,
  type CreatedWebhookEndpoint,
  type EndpointOptions,
  type NewWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../webhooks/endpoints.js';
import { editEndpoint, type EndpointEdit } from '../webhooks/endpoint-edits.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { dashboardErrors } from './dashboard-errors.js';
import { testEventChange } from './test-event.js';

// The dashboard's view of the endpoint repository (webhooks/endpoints.ts): the same rules and shapes, minus the
// seller id (the session's own), plus the test event, which only the dashboard sends.

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
 * Registers an endpoint, or throws core's 400 with the repository's message (naming `url`, `events` or
 * `description`), a 409 when another endpoint of the seller has the URL, or a 403 naming the seller's cap.
 */
export async function createSellerEndpoint(
  handle: DatabaseHandle,
  box: SecretBox,
  sellerId: string,
  input: NewWebhookEndpoint,
  options: EndpointOptions,
): Promise<Omit<CreatedWebhookEndpoint, 'seller_id'>> {
  const result = await createEndpoint(handle, box, sellerId, input, options);
  if (result.kind === 'invalid') throw errors.badRequest(result.message);
  if (result.kind === 'limit_reached') throw dashboardErrors.webhookEndpointLimit(result.message);
  if (result.kind === 'duplicate_url') throw dashboardErrors.webhookUrlTaken(result.message);
  return forDashboard(result.endpoint);
}

/** Edits an endpoint (endpoint-edits.ts); throws core's 400, the 409 of a taken URL; undefined when missing. */
export async function editSellerEndpoint(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  edit: EndpointEdit,
  options: { allowPrivate: boolean; mode?: Mode },
): Promise<DashboardEndpoint | undefined> {
  const result = await editEndpoint(handle, sellerId, endpointId, edit, options);
  if (result.kind === 'not_found') return undefined;
  if (result.kind === 'invalid') throw errors.badRequest(result.message);
  if (result.kind === 'duplicate_url') throw dashboardErrors.webhookUrlTaken(result.message);
  return forDashboard(result.endpoint);
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
