import { randomBytes, randomUUID } from 'node:crypto';
import { CUSTOMER_EVENT_TYPES } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { createSecretBox } from '../webhooks/secret-box.js';

/** A seller with no plan limit; returns its id. */
export async function newTestSeller(handle: DatabaseHandle): Promise<string> {
  return (await createSeller(handle, { name: 'Test seller', plan: 'test' })).id;
}

/** Seals the test endpoints' secrets; never opened (nothing is delivered in the tests that use it). */
const box = createSecretBox(randomBytes(32));

/**
 * An endpoint of the seller subscribed to `events` (every type by default), made by the endpoint repository: the
 * outbox triggers record changes only for subscribed sellers.
 */
export async function subscribeTestEndpoint(
  handle: DatabaseHandle,
  sellerId: string,
  events: readonly string[] = CUSTOMER_EVENT_TYPES,
): Promise<string> {
  // A URL of its own: a seller cannot have two endpoints at one URL.
  const result = await createEndpoint(handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}`, events });
  if (result.kind !== 'created') throw new Error(result.message);
  return result.endpoint.id;
}
