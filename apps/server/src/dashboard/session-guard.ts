import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { readCookie, SESSION_COOKIE } from './cookies.js';
import { dashboardErrors } from './dashboard-errors.js';
import { isSameOriginRequest } from './same-origin.js';
import { findSession, type ActiveSession } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in seller of a dashboard JSON request; set by the session guard. */
    dashboardSession: (ActiveSession & { id: string }) | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function sessionIdOf(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, SESSION_COOKIE);
}

/**
 * Guards every route of the scope, in this order: API keys are refused (401), state-changing requests must
 * come from this origin (403), and a live session cookie is required (401).
 */
export function registerSessionGuard(app: FastifyInstance, deps: { database: DatabaseHandle; now: () => Date }): void {
  app.decorateRequest('dashboardSession', null);
  app.addHook('onRequest', async (request) => {
    if (request.headers['x-api-key'] !== undefined || request.headers.authorization !== undefined) {
      throw dashboardErrors.apiKeyRefused();
    }
    if (!SAFE_METHODS.has(request.method) && !isSameOriginRequest(request)) throw dashboardErrors.crossOrigin();
    const id = sessionIdOf(request);
    const session = await findSession(deps.database, id, deps.now());
    if (!session || id === undefined) throw dashboardErrors.notSignedIn();
    request.dashboardSession = { ...session, id };
  });
}
