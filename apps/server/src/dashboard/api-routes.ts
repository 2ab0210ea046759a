import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import { loadAccount } from './account.js';
import { clearedSessionCookie, isSecureRequest } from './cookies.js';
import { dashboardErrors } from './dashboard-errors.js';
import { parseNewKey } from './key-input.js';
import { createSellerKey, deleteSellerKey, listSellerKeys, revokeSellerKey } from './seller-keys.js';
import { endSession } from './sessions.js';
import { canonicalUuid } from '../db/uuid.js';

type KeyRequest = FastifyRequest<{ Params: { id: string } }>;

/** The JSON behind the API Keys page (openapi.dashboard.yaml); the session guard runs first. */
export function registerApiRoutes(app: FastifyInstance, { database, now }: { database: DatabaseHandle; now: () => Date }) {
  const session = (request: FastifyRequest) => request.dashboardSession!;

  app.get('/account', async (request) => {
    const { sellerId, expiresAt } = session(request);
    const account = await loadAccount(database, sellerId, expiresAt);
    if (!account) throw dashboardErrors.notSignedIn();
    return account;
  });

  app.get('/keys', async (request) => ({ keys: await listSellerKeys(database, session(request).sellerId, now()) }));

  app.post('/keys', async (request, reply) => {
    const at = now();
    const input = parseNewKey(requireBody(request), at);
    const { sellerId } = session(request);
    const created = await audited(database, dashboardAudit(request), (trx) => createSellerKey(trx, sellerId, input, at),
      (key) => ({ sellerId, action: 'api_key.created', targetId: key.id }), at);
    reply.code(201);
    return created;
  });

  app.post('/keys/:id/revoke', async (request: KeyRequest) => {
    const { sellerId } = session(request);
    const key = await audited(database, dashboardAudit(request), (trx) => revokeSellerKey(trx, sellerId, request.params.id, now()),
      (revoked) => revoked && { sellerId, action: 'api_key.revoked', targetId: revoked.id }, now());
    if (!key) throw dashboardErrors.keyNotFound();
    return key;
  });

  app.delete('/keys/:id', async (request: KeyRequest, reply) => {
    const { sellerId } = session(request);
    const deleted = await audited(database, dashboardAudit(request), (trx) => deleteSellerKey(trx, sellerId, request.params.id),
      (done) => (done ? { sellerId, action: 'api_key.deleted', targetId: canonicalUuid(request.params.id) ?? null } : undefined), now());
    if (!deleted) {
      throw dashboardErrors.keyNotFound();
    }
    return reply.code(204).send();
  });

  app.delete('/session', async (request, reply) => {
    const { sellerId, id } = session(request);
    await audited(database, dashboardAudit(request), (trx) => endSession(trx, id), () => ({ sellerId, action: 'signed_out', targetId: null }), now());
    return reply.code(204).header('set-cookie', clearedSessionCookie(isSecureRequest(request))).send();
  });
}
