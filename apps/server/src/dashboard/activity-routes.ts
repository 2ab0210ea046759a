import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listAuditRows } from '../audit/audit-log.js';
import type { DatabaseHandle } from '../db/connect.js';

/** How many rows the Activity page shows. */
export const ACTIVITY_LIMIT = 100;

/**
 * The JSON behind the Activity page (openapi.dashboard.yaml, tag Activity): the signed-in seller's own audit rows,
 * newest first. The session guard runs first; the query is scoped by the session's seller.
 */
export function registerActivityRoutes(app: FastifyInstance, { database }: { database: DatabaseHandle }): void {
  app.get('/activity', async (request: FastifyRequest) => {
    const rows = await listAuditRows(database, { sellerId: request.dashboardSession!.sellerId, limit: ACTIVITY_LIMIT });
    return {
      entries: rows.map(({ occurred_at, action, actor_type, actor_id, actor_label, target_id, request_id, client_address }) => ({
        occurred_at,
        action,
        actor_type,
        actor_id,
        actor_label,
        target_id,
        request_id,
        client_address,
      })),
    };
  });
}
