import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import type { DashboardAssets } from './assets.js';
import { sessionIdOf } from './session-guard.js';
import { findSession } from './sessions.js';

export const KEYS_PAGE = '/dashboard/settings/api-keys';
export const WEBHOOKS_PAGE = '/dashboard/settings/webhooks';
export const ACTIVITY_PAGE = '/dashboard/settings/activity';

/** The HTML pages and their assets. Pages read the session cookie only; the data comes from /dashboard/api. */
export function registerPageRoutes(
  app: FastifyInstance,
  { database, now, assets }: { database: DatabaseHandle; now: () => Date; assets: DashboardAssets },
): void {
  const send = (reply: FastifyReply, name: string, status = 200) => {
    const asset = assets.get(name)!;
    return reply.code(status).type(asset.type).send(asset.body);
  };

  app.get('/', async (request, reply) => {
    if (!(await findSession(database, sessionIdOf(request), now()))) return send(reply, 'signed-out.html', 401);
    return reply.redirect(KEYS_PAGE, 303);
  });

  // Settings pages: the signed-out page without a live session (loading one counts as activity).
  const pages = [['/settings/api-keys', 'keys.html'], ['/settings/webhooks', 'webhooks.html'], ['/settings/activity', 'activity.html']] as const;
  for (const [path, page] of pages) {
    app.get(path, async (request, reply) => {
      if (!(await findSession(database, sessionIdOf(request), now()))) return send(reply, 'signed-out.html', 401);
      return send(reply, page);
    });
  }

  // An endpoint's own page: the same HTML for any id; its script asks the API, which answers 404 for an id that
  // is not the seller's (shown on the page), so the page itself tells nothing about other sellers' endpoints.
  app.get('/settings/webhooks/:id', async (request, reply) => {
    if (!(await findSession(database, sessionIdOf(request), now()))) return send(reply, 'signed-out.html', 401);
    return send(reply, 'endpoint.html');
  });

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const { name } = request.params;
    if (name.endsWith('.html') || !assets.has(name)) return reply.callNotFound();
    return send(reply, name);
  });
}
