import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { customerEvent } from '@customers-api/core';
import { fieldChanges } from '../audit/audit-details.js';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { endpointSuccessRates, findDeliveryDetail } from '../webhooks/delivery-pages.js';
import { disableEndpoint, resendFailedSince, revealEndpointSecret } from '../webhooks/endpoint-edits.js';
import { endpointHealthReport } from '../webhooks/endpoint-health-report.js';
import { findEndpoint } from '../webhooks/endpoints.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { sessionTenant } from './data-mode.js';
import { editSellerEndpoint } from './seller-webhooks.js';
import { testEventChange } from './test-event.js';
import { parseEndpointEdit, parseResendFailed } from './webhook-input.js';
import { testEventType } from './webhook-queries.js';

type EndpointRoute = { Params: { id: string } };
type DeliveryRoute = { Params: { id: string; event_id: string } };

export interface WebhookEndpointRouteDeps {
  database: DatabaseHandle;
  now: () => Date;
  box: SecretBox;
  allowPrivate: boolean;
  /** The seller-budget hook of webhook-routes.ts (one charge per request), with `inMode`'s check. */
  charged: RouteShorthandOptions;
  /** The 404 of an endpoint of the other mode than the page's (`mode`), before the route runs. */
  inMode: RouteShorthandOptions;
  /** A value, or the 404 of a missing endpoint. */
  found: <T>(value: T | undefined | false) => T;
}

/** What an edit may change: the fields its audit row compares (never the secret, which an edit cannot touch). */
const ENDPOINT_FIELDS = ['url', 'events', 'description', 'api_version'];

/**
 * The JSON behind an endpoint's own page (openapi.dashboard.yaml, tag Webhooks): the endpoint with its success
 * rate, edits, disable, the secret revealed, one delivery in detail, resend all failed since a time, and the
 * test event's payload before it is sent. Registered by webhook-routes.ts under the same session guard; every
 * read and change is scoped by the signed-in seller, so another seller's endpoint is a 404 like a missing one.
 */
export function registerWebhookEndpointRoutes(
  app: FastifyInstance,
  { database, now, box, allowPrivate, charged, inMode, found }: WebhookEndpointRouteDeps,
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

  app.patch<EndpointRoute>('/webhooks/:id', charged, async (request) => {
    const edit = parseEndpointEdit(requireBody(request));
    const { sellerId, mode } = sessionTenant(request);
    // The endpoint as it was, read in the edit's transaction: the audit row records each changed field's values.
    const result = await audited(database, dashboardAudit(request),
      async (trx) => {
        const before = await findEndpoint(trx, sellerId, request.params.id, mode);
        const edited = await editSellerEndpoint(trx, sellerId, request.params.id, edit, { allowPrivate, mode });
        return edited && before ? { edited, details: fieldChanges(before, edited, ENDPOINT_FIELDS) } : undefined;
      },
      (done) => done && { sellerId, mode, action: 'webhook_endpoint.updated', targetId: done.edited.id, details: done.details }, now());
    return found(result?.edited);
  });

  app.post<EndpointRoute>('/webhooks/:id/disable', charged, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    return withoutSeller(found(await audited(database, dashboardAudit(request),
      (trx) => disableEndpoint(trx, sellerId, request.params.id, now()),
      (disabled) => disabled && { sellerId, mode, action: 'webhook_endpoint.disabled', targetId: disabled.id }, now())));
  });

  app.post<EndpointRoute>('/webhooks/:id/reveal-secret', charged, async (request) => {
    const { sellerId, mode } = sessionTenant(request);
    return found(await audited(database, dashboardAudit(request),
      (trx) => revealEndpointSecret(trx, box, sellerId, request.params.id),
      (revealed) => revealed && { sellerId, mode, action: 'webhook_endpoint.secret_revealed', targetId: revealed.id }, now()));
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
