import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { createWebhookService, type ApiVersion, type RateLimiter, type SellerContext } from '@customers-api/core';
import { SqlWebhookStore } from '../webhooks/sql-webhook-store.js';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import { canonicalUuid } from '../db/uuid.js';
import { listDeliveryPage } from '../webhooks/delivery-pages.js';
import { enableEndpoint, findEndpoint, resendDelivery } from '../webhooks/endpoints.js';
import { endpointHealthReport } from '../webhooks/endpoint-health-report.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { dashboardErrors } from './dashboard-errors.js';
import { sessionTenant } from './data-mode.js';
import { chargeSellerBudget } from './seller-budget.js';
import { createSellerEndpoint, listSellerEndpoints, sendSellerTestEvent } from './seller-webhooks.js';
import { registerWebhookEndpointRoutes } from './webhook-endpoint-routes.js';
import { parseDeliveryQuery, testEventType } from './webhook-queries.js';
import { parseNewWebhookEndpoint } from './webhook-input.js';

type EndpointRoute = { Params: { id: string } };
type DeliveryRoute = { Params: { id: string; event_id: string } };

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

  // What the dashboard does as the public API does it goes through core's service over the same store (the public
  // operations' rules, audited for the session); the seller's plan limit plays no part in it.
  const webhooksFor = (request: FastifyRequest) =>
    createWebhookService({
      store: new SqlWebhookStore(database, box, dashboardAudit(request), now),
      allowPrivate,
      clock: () => now().toISOString(),
      ...(versions && { versions }),
    });
  const sellerContext = (request: FastifyRequest): SellerContext => ({ ...sessionTenant(request), customerLimit: 0 });
  // The page's mode (`mode`, the test/live switch) is the endpoints' tenant with the seller: an endpoint of the
  // other mode is a 404 like another seller's, checked before any route of one endpoint runs (a mode never changes).
  const inMode = {
    preHandler: async (request: FastifyRequest) => {
      const { sellerId, mode } = sessionTenant(request);
      found(await findEndpoint(database, sellerId, (request.params as { id: string }).id, mode));
    },
  };
  const chargedInMode = { ...charged, ...inMode };

  // Each with its health, last success and next retry (webhooks/endpoint-health-report.ts): a few indexed reads each.
  app.get('/webhooks', async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    const endpoints = await listSellerEndpoints(database, sellerId, mode);
    const at = now();
    return { endpoints: await Promise.all(endpoints.map(async (endpoint) => ({ ...endpoint, ...(await endpointHealthReport(database, endpoint.id, at)) }))) };
  });

  app.post('/webhooks', charged, async (request, reply) => {
    const input = parseNewWebhookEndpoint(requireBody(request));
    const { sellerId, mode } = sessionTenant(request);
    const created = await audited(database, dashboardAudit(request),
      (trx) => createSellerEndpoint(trx, box, sellerId, input, { allowPrivate, now: now(), mode, ...(versions && { versions }) }),
      (endpoint) => ({ sellerId, mode, action: 'webhook_endpoint.created', targetId: endpoint.id }), now());
    return reply.code(201).send(created);
  });

  // The public API's DELETE /api/webhook_endpoints/{id} (core's 404 is the dashboard's, word for word).
  app.delete<EndpointRoute>('/webhooks/:id', chargedInMode, async (request, reply) => {
    await webhooksFor(request).deleteEndpoint(sellerContext(request), request.params.id);
    return reply.code(204).send();
  });

  // The public API's rotate_secret with its default 24-hour overlap, answered in the listing's shape with the secret.
  app.post<EndpointRoute>('/webhooks/:id/rotate-secret', chargedInMode, async (request) =>
    webhooksFor(request).rotateSecret(sellerContext(request), request.params.id, undefined),
  );

  app.post<EndpointRoute>('/webhooks/:id/enable', chargedInMode, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    const { seller_id: _seller, ...endpoint } = found(await audited(database, dashboardAudit(request),
      (trx) => enableEndpoint(trx, sellerId, request.params.id),
      (enabled) => enabled && { sellerId, mode, action: 'webhook_endpoint.enabled', targetId: enabled.id }, now()));
    return endpoint;
  });

  app.get<EndpointRoute>('/webhooks/:id/deliveries', inMode, async (request) => {
    const query = parseDeliveryQuery(request.query as Record<string, unknown>);
    return found(await listDeliveryPage(database, sellerOf(request), request.params.id, query));
  });

  app.post<DeliveryRoute>('/webhooks/:id/deliveries/:event_id/resend', chargedInMode, async (request, reply) => {
    const { id, event_id: eventId } = request.params;
    const { sellerId, mode } = sessionTenant(request);
    found(await audited(database, dashboardAudit(request), (trx) => resendDelivery(trx, sellerId, id, eventId, { now: now() }),
      (resent) => (resent ? { sellerId, mode, action: 'webhook_delivery.resent', targetId: eventId } : undefined), now()));
    return reply.code(204).send();
  });

  app.post<EndpointRoute>('/webhooks/:id/test', chargedInMode, async (request, reply) => {
    const { sellerId, mode } = sessionTenant(request);
    const delivery = found(await audited(database, dashboardAudit(request), (trx) => sendSellerTestEvent(trx, sellerId, request.params.id, now(), (endpoint) => testEventType(request.query as Record<string, unknown>, endpoint), mode),
      (sent) => sent && { sellerId, mode, action: 'webhook_endpoint.test_sent', targetId: canonicalUuid(request.params.id) ?? null }, now()));
    return reply.code(202).send(delivery);
  });

  registerWebhookEndpointRoutes(app, { database, now, box, allowPrivate, charged: chargedInMode, inMode, found });
}
