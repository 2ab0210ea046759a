import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { findSeller } from '../db/sellers.js';
import { audited } from '../audit/audit-log.js';
import { dashboardActor, dashboardAudit } from '../audit/request-audit.js';
import type { DashboardAssets } from './assets.js';
import { isSecureRequest, sessionCookie } from './cookies.js';
import { consumeLoginLink, peekLoginLink } from './login-links.js';
import { KEYS_PAGE } from './page-routes.js';
import { fillTemplate } from './page-template.js';
import { clearedReturnToCookie, returnPathOf } from './return-to.js';
import { isSameOriginRequest } from './same-origin.js';
import { isSecretTokenShape } from './secret-token.js';
import { sessionIdOf } from './session-guard.js';
import { createSession, endSession, findSession } from './sessions.js';
import { formField, registerSignInForm } from './sign-in-form.js';
import { signInPage } from './sign-in-page.js';
import { switchAccountPage } from './switch-account-page.js';

/**
 * Signing in with a one-time link, in two steps so that nothing but a person uses the link up:
 * GET /dashboard/login?token=… only shows a page naming the account ("Sign in as NAME"); its form, submitted by
 * a click (the page has no script), POSTs back to the same URL with `sign_in_as` = that seller; the POST uses the
 * link, starts a session and redirects to the page kept to return to (return-to.ts), else the keys page. The
 * redirect follows a same-site POST, so the SameSite=Strict cookie is sent with it even when the link was opened
 * from a mail client or another site.
 *
 * Any site can send a browser to someone else's unused link (sign-in CSRF), so a POST that does not name the link's
 * seller only shows the question again: `sign_in_as` without a session, `switch_to` with a session of another
 * seller (that page names both accounts). A session of the link's own seller signs in at once.
 */
export function registerLoginRoutes(
  app: FastifyInstance,
  { database, now, assets }: { database: DatabaseHandle; now: () => Date; assets: DashboardAssets },
): void {
  registerSignInForm(app);
  /** The link cannot be used; a browser still signed in is offered the way back to its dashboard. */
  const refuse = async (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const current = await findSession(database, sessionIdOf(request), now());
    const name = current ? (await describeSeller(database, current.sellerId)).name : '';
    const body = fillTemplate(assets, 'login-failed.html', {
      current_name: name,
      signed_in_hidden: current ? '' : 'hidden',
      signed_out_hidden: current ? 'hidden' : '',
    });
    return reply.code(status).type('text/html; charset=utf-8').send(body);
  };
  const ask = (reply: FastifyReply, html: string) => reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  /** The question for this browser: switch from its current seller, or sign in as the link's seller. */
  const question = async (currentSellerId: string | undefined, target: string) => {
    const targetSeller = await describeSeller(database, target);
    return currentSellerId !== undefined && currentSellerId !== target
      ? switchAccountPage(assets, { current: await describeSeller(database, currentSellerId), target: targetSeller })
      : signInPage(assets, targetSeller);
  };

  app.get<{ Querystring: { token?: string } }>('/login', async (request, reply) => {
    // A malformed token can never sign in: say so at once instead of asking.
    if (!isSecretTokenShape(request.query.token)) return refuse(request, reply, 401);
    // Only looked at, never used up: link scanners that open it change nothing.
    const target = await peekLoginLink(database, request.query.token, now());
    if (!target) return refuse(request, reply, 401);
    const current = await findSession(database, sessionIdOf(request), now());
    return ask(reply, await question(current?.sellerId, target));
  });

  app.post<{ Querystring: { token?: string } }>('/login', async (request, reply) => {
    if (!isSameOriginRequest(request)) return refuse(request, reply, 403);
    const { token } = request.query;
    const target = await peekLoginLink(database, token, now());
    if (!target) return refuse(request, reply, 401);
    const currentId = sessionIdOf(request);
    const current = await findSession(database, currentId, now());
    const confirmed = current
      ? current.sellerId === target || formField(request.body, 'switch_to') === target
      : formField(request.body, 'sign_in_as') === target || formField(request.body, 'switch_to') === target;
    if (!confirmed) return ask(reply, await question(current?.sellerId, target));
    // The link's use, the session's start and their audit row: one transaction.
    const signedIn = await audited(
      database,
      dashboardAudit(request),
      async (trx) => {
        const sellerId = await consumeLoginLink(trx, token, now());
        if (!sellerId) return undefined;
        await endSession(trx, currentId);
        return { sellerId, session: await createSession(trx, sellerId, now()) };
      },
      (done) => done && { sellerId: done.sellerId, action: 'sign_in.used', targetId: null, actor: dashboardActor(done.session.id) },
      now(),
    );
    if (!signedIn) return refuse(request, reply, 401);
    const { session } = signedIn;
    const secure = isSecureRequest(request);
    // On to the page the seller was sent away from when signed out (a safe /dashboard/ path only), once.
    const returnTo = returnPathOf(request);
    reply.header('set-cookie', [sessionCookie(session.id, secure), ...(returnTo ? [clearedReturnToCookie(secure)] : [])]);
    return reply.redirect(returnTo ?? KEYS_PAGE, 303);
  });
}

async function describeSeller(database: DatabaseHandle, id: string): Promise<{ id: string; name: string }> {
  return { id, name: (await findSeller(database, id))?.name ?? 'an unknown seller' };
}
