import type { SellerContext, WebhookService } from '@customers-api/core';
import type { FastifyRequest } from 'fastify';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { canonicalUuid } from '../db/uuid.js';
import type { WebhookServiceFor } from '../http/api-webhooks.js';

// The dashboard's endpoint changes go through core's webhook service, the public API's (http/api-webhooks.ts):
// the same rules, store and clock, audited for the session. Only who the seller is comes from here.

export interface DashboardWebhookService {
  /** The service, audited for the request's session. */
  service: WebhookService;
  /** The signed-in seller as the service sees it, for a new endpoint: live (the dashboard makes live endpoints). */
  seller(): Promise<SellerContext>;
  /**
   * The signed-in seller for an existing endpoint: in that endpoint's mode, since the Webhooks page lists the
   * seller's endpoints of both modes. Another seller's endpoint, or none, is the live context (the service answers 404).
   */
  sellerFor(endpointId: string): Promise<SellerContext>;
}

/**
 * @example
 * const { service, seller } = dashboardWebhooks(request);
 * reply.code(201).send(await service.createEndpoint(await seller(), body));
 */
export function dashboardWebhookService(database: DatabaseHandle, services: WebhookServiceFor) {
  return (request: FastifyRequest): DashboardWebhookService => {
    const sellerId = request.dashboardSession!.sellerId;
    return {
      service: services(dashboardAudit(request)),
      async seller() {
        // The seller's pinned version is what a new endpoint is pinned to when none is chosen; the store reads
        // the seller's own endpoint cap itself.
        const row = await database.db.selectFrom('sellers').select('api_version').where('id', '=', sellerId).executeTakeFirst();
        return { sellerId, customerLimit: 0, apiVersion: row?.api_version ?? null, mode: 'live' };
      },
      async sellerFor(endpointId) {
        const id = canonicalUuid(endpointId);
        const row = id
          ? await database.db.selectFrom('webhook_endpoints').select('mode').where('seller_id', '=', sellerId).where('id', '=', id).executeTakeFirst()
          : undefined;
        return { sellerId, customerLimit: 0, mode: row?.mode === 'test' ? 'test' : 'live' };
      },
    };
  };
}
