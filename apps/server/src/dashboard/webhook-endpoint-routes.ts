import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { customerEvent } from '@customers-api/core';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { endpointSuccessRates, findDeliveryDetail } from '../webhooks/delivery-pages.js';
import { resendFailedSince, revealEndpointSecret } from '../webhooks/endpoint-edits.js';
import { countFailedSince } from '../webhooks/failed-since.js';
import { onlyKnown, single, type Query } from './page-query.js';
import { endpointHealthReport } from '../webhooks/endpoint-health-report.js';
import { findEndpoint } from '../webhooks/endpoints.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { sessionTenant } from './data-mode.js';
import type { DashboardWebhookService } from './dashboard-webhook-service.js';
import { testEventChange } from './test-event.js';
import { checkEndpointValues, parseEndpointEdit, parseResendFailed } from './webhook-input.js';
import { testEventType } from './webhook-queries.js';

type EndpointRoute = { Params: { id: string } };
type DeliveryRoute = { Params: { id: string; event_id: string } };

export interface WebhookEndpointRouteDeps {
  database: DatabaseHandle;
  now: () => Date;
  box: SecretBox;
  allowPrivate: boolean;
  /** Core's webhook service for the request's session (dashboard-webhook-service.ts). */
  webhooksFor: (request: FastifyRequest) => DashboardWebhookService;
  /** The seller-budget hook of webhook-routes.ts (one charge per request), with `inMode`'s check. */
  charged: RouteShorthandOptions;
  /** The 404 of an endpoint of the other mode than the page's (`mode`), before the route runs. */
  inMode: RouteShorthandOptions;
  /** A value, or the 404 of a missing endpoint. */
  found: <T>(value: T | undefined | false) => T;
}


/**
 * The JSON behind an endpoint's own page (openapi.dashboard.yaml, tag Webhooks): the endpoint with its success
 * rate, edits, disable, the secret revealed, one delivery in detail, resend all failed since a time, and the
 * test event's payload before it is sent. Registered by webhook-routes.ts under the same session guard; every
 * read and change is scoped by the signed-in seller, so another seller's endpoint is a 404 like a missing one.
 */
export function registerWebhookEndpointRoutes(
  app: FastifyInstance,
  { database, now, box, allowPrivate, charged, inMode, found, webhooksFor }: WebhookEndpointRouteDeps,
): void {
  const sellerOf = (request: FastifyRequest) => request.dashboardSession!.sellerId;
  const withoutSeller = <T extends { seller_id: string }>({ seller_id: _seller, ...rest }: T) => rest;

  app.get<EndpointRoute>('/webhooks/:id', inMode, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    const endpoint = found(await findEndpoint(database, sellerId, request.params.id, mode));
    return {
      ...withoutSeller(endpoint),
      ...(await endpointHealthReport(database, endpoint.id, now())),
      success_rates: await endpointSuccessRates(database, endpoint.id, now()),
    };
  });

  // The public API's PATCH: the dashboard's editable properties (webhook-input.ts) first, then core's rules.
  app.patch<EndpointRoute>('/webhooks/:id', charged, async (request) => {
    const body = requireBody(request);
    checkEndpointValues(parseEndpointEdit(body), { allowPrivate });
    const { service, seller } = webhooksFor(request);
    return service.updateEndpoint(await seller(), request.params.id, body);
  });

  // The public API's PATCH with `disabled: true` (audited as webhook_endpoint.disabled; a disabled one keeps its time).
  app.post<EndpointRoute>('/webhooks/:id/disable', charged, async (request) => {
    const { service, seller } = webhooksFor(request);
    return service.updateEndpoint(await seller(), request.params.id, { disabled: true });
  });

  app.post<EndpointRoute>('/webhooks/:id/reveal-secret', charged, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    return found(await audited(database, dashboardAudit(request),
      (trx) => revealEndpointSecret(trx, box, sellerId, request.params.id),
      (revealed) => revealed && { sellerId, mode, action: 'webhook_endpoint.secret_revealed', targetId: revealed.id }, now()));
  });

  // What the resend below would send now, counted by its own query and bounded like it (at most cap + 1 rows read).
  app.get<EndpointRoute>('/webhooks/:id/resend-failed', inMode, async (request) => {
    const query = request.query as Query;
    onlyKnown(query, ['since', 'mode']);
    const since = parseResendFailed({ since: single(query, 'since') }, now());
    return found(await countFailedSince(database, sessionTenant(request).sellerId, request.params.id, since));
  });

  app.post<EndpointRoute>('/webhooks/:id/resend-failed', charged, async (request) => {
    const since = parseResendFailed(requireBody(request), now());
    const { sellerId, mode } = sessionTenant(request);
    const { resent, more } = found(await audited(database, dashboardAudit(request),
      (trx) => resendFailedSince(trx, sellerId, request.params.id, since, now()),
      (done) => done && { sellerId, mode, action: 'webhook_delivery.resent_failed', targetId: done.id }, now()));
    return { resent, more };
  });

  app.get<DeliveryRoute>('/webhooks/:id/deliveries/:event_id', inMode, async (request) =>
    found(await findDeliveryDetail(database, sellerOf(request), request.params.id, request.params.event_id, now())));

  app.get<EndpointRoute>('/webhooks/:id/test', inMode, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    const endpoint = found(await findEndpoint(database, sellerId, request.params.id, mode));
    const type = testEventType(request.query as Record<string, unknown>, endpoint);
    return customerEvent(testEventChange(sellerId, now(), undefined, type, mode));
  });
}
