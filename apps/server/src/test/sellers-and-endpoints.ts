import { randomUUID } from 'node:crypto';
import { CUSTOMER_EVENT_TYPES } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';

/** A seller row with no plan limit; returns its id. */
export async function newTestSeller(handle: DatabaseHandle): Promise<string> {
  const id = randomUUID();
  await handle.db
    .insertInto('sellers')
    .values({ id, name: 'Test seller', plan: 'test', customer_limit: null, created_at: new Date().toISOString() })
    .execute();
  return id;
}

/**
 * An endpoint row of the seller subscribed to `events` (every type by default), written directly: the outbox
 * triggers record changes only for subscribed sellers. Its secret is a placeholder never opened.
 */
export async function subscribeTestEndpoint(
  handle: DatabaseHandle,
  sellerId: string,
  events: readonly string[] = CUSTOMER_EVENT_TYPES,
): Promise<string> {
  const id = randomUUID();
  await handle.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      seller_id: sellerId,
      url: 'https://receiver.example/hooks',
      event_types: JSON.stringify(events),
      secret: 'sealed',
      secret_key_id: 'test',
      previous_secret: null,
      previous_secret_expires_at: null,
      created_at: new Date().toISOString(),
      failing_since: null,
    })
    .execute();
  return id;
}
