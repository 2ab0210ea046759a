import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashSecretToken } from '../dashboard/secret-token.js';
import { clientRequestIdOf } from '../http/request-id.js';
import type { AuditActor, AuditContext } from './audit-actions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether audit rows record the client's address (buildApp's `audit.clientAddresses`, on by default). */
    auditClientAddresses: boolean;
  }
}

/** Sets whether audit rows of this app record client addresses (they are personal data: an operator may say no). */
export function registerAuditSettings(app: FastifyInstance, { clientAddresses = true }: { clientAddresses?: boolean } = {}): void {
  app.decorate('auditClientAddresses', clientAddresses);
}

/**
 * A dashboard session as an actor: a digest of the hash the database keeps (never the cookie's value, and not the
 * stored hash itself), the same for every row of one session, so a sign-in and what followed can be told apart.
 */
export function dashboardActor(sessionId: string): AuditActor {
  const reference = createHash('sha256').update(`audit-session:${hashSecretToken(sessionId)}`).digest('hex').slice(0, 16);
  return { type: 'dashboard', id: reference };
}

/** The audit context of a dashboard request: its session (when signed in), request id and client address. */
export function dashboardAudit(request: FastifyRequest): AuditContext {
  const session = request.dashboardSession;
  return {
    actor: session ? dashboardActor(session.id) : { type: 'dashboard', id: null },
    requestId: request.id,
    clientRequestId: clientRequestIdOf(request),
    clientAddress: request.server.auditClientAddresses === false ? null : request.ip,
  };
}
