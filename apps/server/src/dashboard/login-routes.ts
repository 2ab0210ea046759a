import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import type { DashboardAssets } from './assets.js';
import { isSecureRequest, sessionCookie } from './cookies.js';
import { consumeLoginLink } from './login-links.js';
import { KEYS_PAGE } from './page-routes.js';
import { isSameOriginRequest } from './same-origin.js';
import { isSecretTokenShape } from './secret-token.js';
import { sessionIdOf } from './session-guard.js';
import { createSession, endSession } from './sessions.js';

/**
 * Signing in with a one-time link, in two steps so that nothing but a browser uses the link up:
 * GET /dashboard/login?token=… only shows a page whose form (submitted by its script, or by the button)
 * POSTs back to the same URL; that POST uses the link, starts a session and redirects to the keys page.
 * The redirect follows a same-site POST, so the SameSite=Strict cookie is sent with it even when the link was
 * opened from a mail client or another site.
 */
export function registerLoginRoutes(
  app: FastifyInstance,
  { database, now, assets }: { database: DatabaseHandle; now: () => Date; assets: DashboardAssets },
): void {
  // The sign-in form posts an empty form body; the token travels in the URL (never logged: paths only).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_r, _b, done) =>
    done(null, {}),
  );
  const page = (name: string) => assets.get(name)!;

  app.get<{ Querystring: { token?: string } }>('/login', async (request, reply) => {
    // A malformed token can never sign in: say so at once instead of showing the form.
    const shown = isSecretTokenShape(request.query.token) ? page('login.html') : page('login-failed.html');
    return reply.code(shown === page('login.html') ? 200 : 401).type(shown.type).send(shown.body);
  });

  app.post<{ Querystring: { token?: string } }>('/login', async (request, reply) => {
    const failed = page('login-failed.html');
    if (!isSameOriginRequest(request)) return reply.code(403).type(failed.type).send(failed.body);
    const sellerId = await consumeLoginLink(database, request.query.token, now());
    if (!sellerId) return reply.code(401).type(failed.type).send(failed.body);
    await endSession(database, sessionIdOf(request));
    const session = await createSession(database, sellerId, now());
    reply.header('set-cookie', sessionCookie(session.id, isSecureRequest(request)));
    return reply.redirect(KEYS_PAGE, 303);
  });
}
