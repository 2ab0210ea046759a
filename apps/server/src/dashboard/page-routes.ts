import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import type { DashboardAssets } from './assets.js';
import { isSecureRequest } from './cookies.js';
import { returnToCookie, safeReturnPath } from './return-to.js';
import { sessionIdOf } from './session-guard.js';
import { findSession, sessionEndReason } from './sessions.js';
import { settingsPage, type SettingsPage } from './settings-layout.js';
import { signedOutPage } from './signed-out-page.js';

export const KEYS_PAGE = '/dashboard/settings/api-keys';
export const WEBHOOKS_PAGE = '/dashboard/settings/webhooks';
export const ACTIVITY_PAGE = '/dashboard/settings/activity';
export const REQUEST_LOGS_PAGE = '/dashboard/settings/request-logs';
export const EVENTS_PAGE = '/dashboard/settings/events';
export const CUSTOMERS_PAGE = '/dashboard/settings/customers';

/** The Settings pages on the shared layout (settings-layout.ts); add a page here and to SETTINGS_NAV. */
const LAYOUT_PAGES: readonly SettingsPage[] = [
  { path: '/settings/api-keys', title: 'API Keys', content: 'keys.html', script: 'keys.js' },
  { path: '/settings/webhooks', title: 'Webhooks', content: 'webhooks.html', script: 'webhooks.js', stylesheet: 'webhooks.css' },
  { path: '/settings/activity', title: 'Activity', content: 'activity.html', script: 'activity.js' },
  { path: '/settings/request-logs', title: 'Request logs', content: 'request-logs.html', script: 'request-logs.js', stylesheet: 'webhooks.css' },
  { path: '/settings/events', title: 'Events', content: 'events.html', script: 'events.js', stylesheet: 'webhooks.css' },
  { path: '/settings/customers', title: 'Customers', content: 'customers.html', script: 'customers.js', stylesheet: 'webhooks.css' },
];

/**
 * An endpoint's own page: the same HTML for any id; its script asks the API, which answers 404 for an id that is
 * not the seller's (shown on the page), so the page itself tells nothing about other sellers' endpoints.
 */
const ENDPOINT_PAGE: SettingsPage = {
  path: '/settings/webhooks/:id',
  title: 'Webhook endpoint',
  content: 'endpoint.html',
  script: 'endpoint.js',
  stylesheet: 'webhooks.css',
  parent: { path: '/settings/webhooks', title: 'Webhooks' },
};

/** The HTML pages and their assets. Pages read the session cookie only; the data comes from /dashboard/api. */
export function registerPageRoutes(
  app: FastifyInstance,
  { database, now, assets }: { database: DatabaseHandle; now: () => Date; assets: DashboardAssets },
): void {
  const send = (reply: FastifyReply, name: string, status = 200) => {
    const asset = assets.get(name)!;
    return reply.code(status).type(asset.type).send(asset.body);
  };
  const html = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);

  /**
   * Without a live session: the signed-out page saying why, and (for a page, not /dashboard itself) the page kept
   * to return to after the next sign-in. Null when the session is live (looking it up counts as activity).
   */
  const signedOut = async (request: FastifyRequest, reply: FastifyReply, keep: boolean) => {
    const id = sessionIdOf(request);
    if (await findSession(database, id, now())) return null;
    const query = request.query as Record<string, unknown>;
    const ended = await sessionEndReason(database, id, now());
    const reason = ended === 'none' && query.reason === 'signed-out' ? 'signed-out' : ended;
    const returnTo = keep ? safeReturnPath(request.url) : undefined;
    if (returnTo) reply.header('set-cookie', returnToCookie(returnTo, isSecureRequest(request)));
    return html(reply, signedOutPage(assets, reason, returnTo), 401);
  };

  app.get('/', async (request, reply) => (await signedOut(request, reply, false)) ?? reply.redirect(KEYS_PAGE, 303));

  // Rendered once per mode: nothing else in them depends on the request. `?mode=test` (the test/live switch) shows
  // the test view; anything else the live one (the scripts read the address the same way, mode.ts).
  const modeOf = (request: FastifyRequest) => ((request.query as Record<string, unknown>).mode === 'test' ? 'test' : 'live');
  const register = (page: SettingsPage) => {
    const bodies = { live: settingsPage(assets, page, 'live'), test: settingsPage(assets, page, 'test') };
    app.get(page.path, async (request, reply) => (await signedOut(request, reply, true)) ?? html(reply, bodies[modeOf(request)]));
  };
  for (const page of LAYOUT_PAGES) register(page);
  register(ENDPOINT_PAGE);

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const { name } = request.params;
    if (name.endsWith('.html') || !assets.has(name)) return reply.callNotFound();
    return send(reply, name);
  });
}

/** The styled 404 for unknown dashboard page paths (the JSON API keeps its JSON 404). */
export function sendPageNotFound(reply: FastifyReply, assets: DashboardAssets) {
  const asset = assets.get('not-found.html')!;
  return reply.code(404).type(asset.type).send(asset.body);
}
