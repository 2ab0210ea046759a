import { errors } from '@customers-api/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listAuditRows } from '../audit/audit-log.js';
import type { DatabaseHandle } from '../db/connect.js';
import { activityNames } from './activity-names.js';
import { parseDeliveryCursor } from '../webhooks/delivery-pages.js';
import { sessionTenant } from './data-mode.js';

/** How many rows a page of the Activity page holds. */
export const ACTIVITY_LIMIT = 100;

type ActivityRequest = FastifyRequest<{ Querystring: Record<string, unknown> }>;

/** The page's `cursor` (a row id, the same form as the deliveries' cursor), or core's 400 naming it. */
function beforeIdOf(query: Record<string, unknown>): number | undefined {
  const cursor = query.cursor;
  if (cursor === undefined) return undefined;
  const id = typeof cursor === 'string' ? parseDeliveryCursor(cursor) : undefined;
  if (id === undefined) throw errors.badRequest("cursor must be a previous page's next_cursor", 'cursor');
  return id;
}

/**
 * The JSON behind the Activity page (openapi.dashboard.yaml, tag Activity): the signed-in seller's own audit rows,
 * newest first, a page at a time, of one mode (`mode`). The session guard runs first; the query is scoped by the
 * session's seller and the mode.
 */
export function registerActivityRoutes(app: FastifyInstance, { database }: { database: DatabaseHandle }): void {
  app.get('/activity', async (request: ActivityRequest) => {
    const beforeId = beforeIdOf(request.query);
    // The rows of the page's mode (the test/live switch): test keys' changes and the wipe in test mode.
    const { sellerId, mode } = sessionTenant(request);
    // One row more than a page tells whether an older page exists.
    const rows = await listAuditRows(database, { sellerId, mode, beforeId, limit: ACTIVITY_LIMIT + 1 });
    const page = rows.slice(0, ACTIVITY_LIMIT);
    const names = await activityNames(database, request.dashboardSession!.sellerId, page);
    return {
      entries: page.map(({ occurred_at, action, actor_type, actor_id, actor_label, target_id, request_id, client_request_id, client_address, details }) => ({
        occurred_at,
        action,
        actor_type,
        actor_id,
        actor_label,
        target_id,
        target_name: (target_id !== null && names.get(target_id.toLowerCase())) || null,
        request_id,
        client_request_id,
        client_address,
        details,
      })),
      next_cursor: rows.length > ACTIVITY_LIMIT ? String(page.at(-1)!.id) : null,
    };
  });
}
