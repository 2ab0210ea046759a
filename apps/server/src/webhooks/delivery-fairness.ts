// How the server shares delivery capacity between sellers and endpoints (issue 23), as openapi.yaml's "Change
// events" and the server README state it. Server-only numbers, unlike core's delivery-policy.ts: they size this
// server's worker pool and database claims, and no other host (the mocks deliver one request at a time in memory)
// has slots to share. The retry schedule, the timeout and the 5 days before an endpoint is disabled are policy
// every host follows, so they stay in core.

/** Attempts in flight at once per server process: the worker's slots. */
export const DELIVERY_SLOTS_PER_PROCESS = 16;

/**
 * Attempts in flight at once for one seller, counted across every process on the database (leased rows): half
 * of one process's slots, so one seller never fills a process, whatever its endpoints do.
 */
export const SELLER_DELIVERY_SLOTS = 8;

/** Attempts in flight at once for one endpoint across every process, while it answers in time. */
export const ENDPOINT_DELIVERY_SLOTS = 4;

/**
 * The slots of an endpoint whose last `timeoutsInARow` attempts got no answer in time: each halves them, down to
 * one; any answer (even an error status) gives them all back. The retry schedule does not change.
 *
 * @example
 * endpointSlots(0); // 4
 * endpointSlots(1); // 2
 * endpointSlots(5); // 1
 */
export function endpointSlots(timeoutsInARow: number, slots = ENDPOINT_DELIVERY_SLOTS): number {
  return Math.max(1, Math.floor(slots / 2 ** Math.min(Math.max(timeoutsInARow, 0), 30)));
}

/** The default cap on a seller's webhook endpoints (core's); `sellers update --webhook-endpoint-limit` sets one. */
export { DEFAULT_WEBHOOK_ENDPOINT_LIMIT } from '@customers-api/core';
