import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import type { RateLimiter } from '@customers-api/core';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import { canonicalUuid } from '../db/uuid.js';
import { listDeliveryPage } from '../webhooks/delivery-pages.js';
import { findEndpoint, resendDelivery } from '../webhooks/endpoints.js';
import { endpointHealthReport } from '../webhooks/endpoint-health-report.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { dashboardErrors } from './dashboard-errors.js';
import { sessionTenant } from './data-mode.js';
import { chargeSellerBudget } from './seller-budget.js';
import type { WebhookServiceFor } from '../http/api-webhooks.js';
import { dashboardWebhookService } from './dashboard-webhook-service.js';
import { listSellerEndpoints, sendSellerTestEvent } from './seller-webhooks.js';
import { registerWebhookEndpointRoutes } from './webhook-endpoint-routes.js';
import { parseDeliveryQuery, testEventType } from './webhook-queries.js';
import { checkEndpointValues, parseNewWebhookEndpoint } from './webhook-input.js';

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
  /** Core's webhook service per actor, the public API's (buildApp makes one for both). */
  services: WebhookServiceFor;
}

/**
 * The JSON behind the Webhooks page (openapi.dashboard.yaml, tag Webhooks). The session guard runs first, and
 * every repository call is scoped by the signed-in seller, so another seller's endpoint is a 404 exactly like a
 * missing one.
 */
export function registerWebhookRoutes(app: FastifyInstance, { database, now, box, allowPrivate, rateLimiter, services }: WebhookRouteDeps) {
  // Every change and every request that makes deliveries costs the seller one request of its API budget.
  const charged = { onRequest: chargeSellerBudget(database, rateLimiter) };
  const sellerOf = (request: FastifyRequest) => request.dashboardSession!.sellerId;
  const found = <T>(value: T | undefined | false): T => {
    if (value === undefined || value === false) throw dashboardErrors.webhookNotFound();
    return value;
  };

  // What the dashboard does as the public API does it (create, edit, enable, disable, delete, rotate) goes through
  // core's service, the public API's, over the same store (its rules, audited for the session); the seller's
  // plan limit plays no part in it.
  const webhooksFor = dashboardWebhookService(database, services);
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

  // The public API's POST /api/webhook_endpoints: the dashboard's body shape (webhook-input.ts) first, then core's
  // rules, cap and 409, answered with the secret this once.
  app.post('/webhooks', charged, async (request, reply) => {
    const body = requireBody(request);
    checkEndpointValues(parseNewWebhookEndpoint(body), { allowPrivate });
    const { service, seller } = webhooksFor(request);
    return reply.code(201).send(await service.createEndpoint(await seller(), body));
  });

  // The public API's DELETE /api/webhook_endpoints/{id} (core's 404 is the dashboard's, word for word).
  app.delete<EndpointRoute>('/webhooks/:id', chargedInMode, async (request, reply) => {
    const { service, seller } = webhooksFor(request);
    await service.deleteEndpoint(await seller(), request.params.id);
    return reply.code(204).send();
  });

  // The public API's rotate_secret with its default 24-hour overlap, answered in the listing's shape with the secret.
  app.post<EndpointRoute>('/webhooks/:id/rotate-secret', chargedInMode, async (request) => {
    const { service, seller } = webhooksFor(request);
    return service.rotateSecret(await seller(), request.params.id, undefined);
  });

  // The public API's PATCH with `disabled: false` (audited as webhook_endpoint.enabled).
  app.post<EndpointRoute>('/webhooks/:id/enable', chargedInMode, async (request) => {
    const { service, seller } = webhooksFor(request);
    return service.updateEndpoint(await seller(), request.params.id, { disabled: false });
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

  registerWebhookEndpointRoutes(app, { database, now, box, allowPrivate, charged: chargedInMode, inMode, found, webhooksFor });
}
