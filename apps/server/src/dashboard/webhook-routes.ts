import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import type { ApiVersion, RateLimiter } from '@customers-api/core';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import { canonicalUuid } from '../db/uuid.js';
import { listDeliveryPage } from '../webhooks/delivery-pages.js';
import { deleteEndpoint, enableEndpoint, findEndpoint, resendDelivery, rotateEndpointSecret } from '../webhooks/endpoints.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { dashboardErrors } from './dashboard-errors.js';
import { chargeSellerBudget } from './seller-budget.js';
import { createSellerEndpoint, listSellerEndpoints, sendSellerTestEvent } from './seller-webhooks.js';
import { registerWebhookEndpointRoutes } from './webhook-endpoint-routes.js';
import { parseDeliveryQuery, testEventType } from './webhook-queries.js';
import { parseNewWebhookEndpoint } from './webhook-input.js';

type EndpointRoute = { Params: { id: string } };
type DeliveryRoute = { Params: { id: string; event_id: string } };
type EndpointRequest = FastifyRequest<EndpointRoute>;

export interface WebhookRouteDeps {
  database: DatabaseHandle;
  now: () => Date;
  /** Seals endpoint secrets (the server's webhook secret key). */
  box: SecretBox;
  /** `--allow-private-webhooks`: sellers may register loopback and private addresses (local development). */
  allowPrivate: boolean;
  /** The API's per-seller limiter: test events, resends and endpoint changes take from the same budget. */
  rateLimiter?: RateLimiter | undefined;
  /** The versions an endpoint may be pinned to (the app's versioning); openapi.yaml's when omitted. */
  versions?: readonly ApiVersion[] | undefined;
}

/**
 * The JSON behind the Webhooks page (openapi.dashboard.yaml, tag Webhooks). The session guard runs first, and
 * every repository call is scoped by the signed-in seller, so another seller's endpoint is a 404 exactly like a
 * missing one.
 */
export function registerWebhookRoutes(app: FastifyInstance, { database, now, box, allowPrivate, rateLimiter, versions }: WebhookRouteDeps) {
  // Every change and every request that makes deliveries costs the seller one request of its API budget.
  const charged = { onRequest: chargeSellerBudget(database, rateLimiter) };
  const sellerOf = (request: FastifyRequest) => request.dashboardSession!.sellerId;
  const found = <T>(value: T | undefined | false): T => {
    if (value === undefined || value === false) throw dashboardErrors.webhookNotFound();
    return value;
  };

  app.get('/webhooks', async (request) => ({ endpoints: await listSellerEndpoints(database, sellerOf(request)) }));

  app.post('/webhooks', charged, async (request, reply) => {
    const input = parseNewWebhookEndpoint(requireBody(request));
    const sellerId = sellerOf(request);
    const created = await audited(database, dashboardAudit(request),
      (trx) => createSellerEndpoint(trx, box, sellerId, input, { allowPrivate, now: now(), ...(versions && { versions }) }),
      (endpoint) => ({ sellerId, action: 'webhook_endpoint.created', targetId: endpoint.id }), now());
    return reply.code(201).send(created);
  });

  app.delete<EndpointRoute>('/webhooks/:id', charged, async (request, reply) => {
    const sellerId = sellerOf(request);
    const targetId = canonicalUuid(request.params.id) ?? null;
    found(await audited(database, dashboardAudit(request), (trx) => deleteEndpoint(trx, sellerId, request.params.id),
      (deleted) => (deleted ? { sellerId, action: 'webhook_endpoint.deleted', targetId } : undefined), now()));
    return reply.code(204).send();
  });

  app.post<EndpointRoute>('/webhooks/:id/rotate-secret', charged, async (request) => {
    const sellerId = sellerOf(request);
    const { id, secret } = found(await audited(database, dashboardAudit(request),
      (trx) => rotateEndpointSecret(trx, box, sellerId, request.params.id, { now: now() }),
      (rotated) => rotated && { sellerId, action: 'webhook_endpoint.secret_rotated', targetId: rotated.id }, now()));
    // Answered in the listing's shape with the new secret, as after a create.
    const { seller_id: _seller, ...endpoint } = found(await findEndpoint(database, sellerId, id));
    return { ...endpoint, secret };
  });

  app.post<EndpointRoute>('/webhooks/:id/enable', charged, async (request) => {
    const sellerId = sellerOf(request);
    const { seller_id: _seller, ...endpoint } = found(await audited(database, dashboardAudit(request),
      (trx) => enableEndpoint(trx, sellerId, request.params.id),
      (enabled) => enabled && { sellerId, action: 'webhook_endpoint.enabled', targetId: enabled.id }, now()));
    return endpoint;
  });

  app.get('/webhooks/:id/deliveries', async (request: EndpointRequest) => {
    const query = parseDeliveryQuery(request.query as Record<string, unknown>);
    return found(await listDeliveryPage(database, sellerOf(request), request.params.id, query));
  });

  app.post<DeliveryRoute>('/webhooks/:id/deliveries/:event_id/resend', charged, async (request, reply) => {
    const { id, event_id: eventId } = request.params;
    const sellerId = sellerOf(request);
    found(await audited(database, dashboardAudit(request), (trx) => resendDelivery(trx, sellerId, id, eventId, { now: now() }),
      (resent) => (resent ? { sellerId, action: 'webhook_delivery.resent', targetId: eventId } : undefined), now()));
    return reply.code(204).send();
  });

  app.post<EndpointRoute>('/webhooks/:id/test', charged, async (request, reply) => {
    const sellerId = sellerOf(request);
    const delivery = found(await audited(database, dashboardAudit(request), (trx) => sendSellerTestEvent(trx, sellerId, request.params.id, now(), (endpoint) => testEventType(request.query as Record<string, unknown>, endpoint)),
      (sent) => sent && { sellerId, action: 'webhook_endpoint.test_sent', targetId: canonicalUuid(request.params.id) ?? null }, now()));
    return reply.code(202).send(delivery);
  });

  registerWebhookEndpointRoutes(app, { database, now, box, allowPrivate, charged, found });
}
