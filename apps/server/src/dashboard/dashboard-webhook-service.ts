import type { SellerContext, WebhookService } from '@customers-api/core';
import type { FastifyRequest } from 'fastify';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import type { WebhookServiceFor } from '../http/api-webhooks.js';
import { sessionTenant } from './data-mode.js';

// The dashboard's endpoint changes go through core's webhook service, the public API's (http/api-webhooks.ts):
// the same rules, store and clock, audited for the session. Only who the seller is comes from here.

export interface DashboardWebhookService {
  /** The service, audited for the request's session. */
  service: WebhookService;
  /**
   * The signed-in seller as the service sees it, in the page's mode (`?mode=`, the test/live switch), for every
   * route: an endpoint of the other mode, another seller's, or none is the service's 404 (the routes' `inMode`
   * check answers it first), so no route needs more than the mode to say whose endpoint it is.
   */
  seller(): Promise<SellerContext>;
}

/**
 * @example
 * const { service, seller } = dashboardWebhooks(request);
 * reply.code(201).send(await service.createEndpoint(await seller(), body));
 */
export function dashboardWebhookService(database: DatabaseHandle, services: WebhookServiceFor) {
  return (request: FastifyRequest): DashboardWebhookService => {
    const tenant = sessionTenant(request);
    return {
      service: services(dashboardAudit(request)),
      async seller() {
        // The seller's pinned version is what a new endpoint is pinned to when none is chosen (in test mode the
        // test pin when one is set, as a test key's requests are answered); the store reads the endpoint cap itself.
        const row = await database.db.selectFrom('sellers').select(['api_version', 'test_api_version']).where('id', '=', tenant.sellerId).executeTakeFirst();
        const pin = tenant.mode === 'test' ? (row?.test_api_version ?? row?.api_version) : row?.api_version;
        return { ...tenant, customerLimit: 0, apiVersion: pin ?? null };
      },
    };
  };
}
