import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { loadAccount } from './account.js';
import { clearedSessionCookie, isSecureRequest } from './cookies.js';
import { dashboardErrors } from './dashboard-errors.js';
import { parseNewKey } from './key-input.js';
import { createSellerKey, deleteSellerKey, listSellerKeys, revokeSellerKey } from './seller-keys.js';
import { endSession } from './sessions.js';

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
    reply.code(201);
    return createSellerKey(database, session(request).sellerId, input, at);
  });

  app.post('/keys/:id/revoke', async (request: KeyRequest) => {
    const key = await revokeSellerKey(database, session(request).sellerId, request.params.id, now());
    if (!key) throw dashboardErrors.keyNotFound();
    return key;
  });

  app.delete('/keys/:id', async (request: KeyRequest, reply) => {
    if (!(await deleteSellerKey(database, session(request).sellerId, request.params.id))) {
      throw dashboardErrors.keyNotFound();
    }
    return reply.code(204).send();
  });

  app.delete('/session', async (request, reply) => {
    await endSession(database, session(request).id);
    return reply.code(204).header('set-cookie', clearedSessionCookie(isSecureRequest(request))).send();
  });
}
