import { errors, type RateLimiter } from '@customers-api/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { canonicalUuid } from '../db/uuid.js';
import { requireBody } from '../http/json-body-parser.js';
import { resendDelivery } from '../webhooks/endpoints.js';
import { listEventStates, type EventSearch } from '../webhooks/event-states.js';
import { dashboardErrors } from './dashboard-errors.js';
import { dataModeOf } from './data-mode.js';
import { onlyKnown, pageOf, single, type Query } from './page-query.js';
import { chargeSellerBudget } from './seller-budget.js';

/** The Events page's query (openapi.dashboard.yaml, listEvents), or core's 400 naming a parameter. */
export function parseEventQuery(query: Query): EventSearch {
  onlyKnown(query, ['event_id', 'customer_id', 'mode', 'cursor', 'limit']);
  const { beforeId, limit } = pageOf(query);
  const search: EventSearch = { limit, mode: dataModeOf(query), ...(beforeId !== undefined ? { beforeId } : {}) };
  const eventId = single(query, 'event_id');
  if (eventId !== undefined) {
    const hex = /^(?:evt_)?([0-9a-f]{4,32})$/i.exec(eventId)?.[1];
    if (!hex) throw errors.badRequest('event_id must be an event id or its beginning: at least 4 hex digits, with or without evt_', 'event_id');
    search.eventIdPrefix = `evt_${hex.toLowerCase()}`;
  }
  const customerId = single(query, 'customer_id');
  if (customerId !== undefined) {
    const id = canonicalUuid(customerId);
    if (!id) throw errors.badRequest('customer_id must be a customer id (a UUID)', 'customer_id');
    search.customerId = id;
  }
  return search;
}

/**
 * The JSON behind the Events page (openapi.dashboard.yaml, tag Events): the signed-in seller's events across its
 * endpoints, and a resend through the same service as the endpoint page's (webhooks/endpoints.ts resendDelivery).
 */
export function registerEventRoutes(
  app: FastifyInstance,
  { database, now, rateLimiter }: { database: DatabaseHandle; now: () => Date; rateLimiter?: RateLimiter | undefined },
): void {
  app.get('/events', async (request: FastifyRequest<{ Querystring: Query }>) =>
    listEventStates(database, request.dashboardSession!.sellerId, parseEventQuery(request.query)));

  app.post<{ Params: { event_id: string } }>(
    '/events/:event_id/resend',
    { onRequest: chargeSellerBudget(database, rateLimiter) },
    async (request, reply) => {
      const body = requireBody(request) as Record<string, unknown>;
      const extra = Object.keys(body).find((name) => name !== 'endpoint_id');
      if (extra !== undefined) throw errors.badRequest(`${extra} is not an allowed property`, extra);
      if (typeof body.endpoint_id !== 'string') throw errors.badRequest('endpoint_id is required: the webhook endpoint to send the event to', 'endpoint_id');
      const endpointId = body.endpoint_id;
      const sellerId = request.dashboardSession!.sellerId;
      const eventId = request.params.event_id;
      const resent = await audited(database, dashboardAudit(request), (trx) => resendDelivery(trx, sellerId, endpointId, eventId, { now: now() }),
        (done) => (done ? { sellerId, action: 'webhook_delivery.resent', targetId: eventId } : undefined), now());
      if (!resent) throw dashboardErrors.webhookNotFound();
      return reply.code(204).send();
    },
  );
}
