import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { audited, writeAuditRow } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import { loadAccount } from './account.js';
import { clearedSessionCookie, isSecureRequest } from './cookies.js';
import { dashboardErrors } from './dashboard-errors.js';
import { dataModeOf, withoutMode } from './data-mode.js';
import { parseKeyRoll, parseNewKey } from './key-input.js';
import { encodeKeyCursor, parseKeyPageQuery } from './key-page-query.js';
import { chargeSellerBudget } from './seller-budget.js';
import { createSellerKey, deleteSellerKey, listSellerKeysPage, revokeSellerKey, rollSellerKey } from './seller-keys.js';
import { endSession } from './sessions.js';
import { canonicalUuid } from '../db/uuid.js';
import { setSellerApiVersion } from '../db/sellers.js';
import { errors, type ApiVersion, type RateLimiter } from '@customers-api/core';
import { fieldChanges, rollDetails } from '../audit/audit-details.js';

type KeyRoute = { Params: { id: string } };

/** The JSON behind the API Keys page (openapi.dashboard.yaml); the session guard runs first. */
export function registerApiRoutes(
  app: FastifyInstance,
  {
    database,
    now,
    versions,
    rateLimiter,
  }: { database: DatabaseHandle; now: () => Date; versions?: readonly ApiVersion[] | undefined; rateLimiter?: RateLimiter | undefined },
) {
  const session = (request: FastifyRequest) => request.dashboardSession!;
  // Every change costs the seller one request of its API budget, as the webhook routes do (429 + Retry-After).
  const charged = { onRequest: chargeSellerBudget(database, rateLimiter) };

  app.get('/account', async (request) => {
    const { sellerId, expiresAt } = session(request);
    const account = await loadAccount(database, sellerId, expiresAt, now(), versions);
    if (!account) throw dashboardErrors.notSignedIn();
    return account;
  });

  // Forward only: a seller moves to a newer version, never back (the operator's CLI may).
  app.patch('/account/api-version', charged, async (request) => {
    const { sellerId, expiresAt } = session(request);
    // The body parser has made it a JSON object already (or refused it with core's 400/415).
    const body = requireBody(request) as Record<string, unknown>;
    const wanted = body.api_version;
    const current = await loadAccount(database, sellerId, expiresAt, now(), versions);
    if (!current) throw dashboardErrors.notSignedIn();
    const extra = Object.keys(body).find((name) => name !== 'api_version');
    if (extra !== undefined) throw errors.badRequest(`${extra} is not an allowed property`, extra);
    if (wanted === undefined) throw errors.badRequest('api_version is required', 'api_version');
    if (typeof wanted !== 'string' || !current.api_versions_available.includes(wanted)) {
      const open = current.api_versions_available;
      throw errors.badRequest(
        open.length === 0
          ? `api_version cannot change: ${current.api_version} is the latest version`
          : `api_version must be a newer version: one of ${open.join(', ')}`,
        'api_version',
      );
    }
    await audited(database, dashboardAudit(request), (trx) => setSellerApiVersion(trx, sellerId, wanted),
      (updated) => updated && {
        sellerId, action: 'seller.updated', targetId: sellerId,
        details: fieldChanges({ api_version: current.api_version }, { api_version: wanted }, ['api_version']),
      }, now());
    return (await loadAccount(database, sellerId, expiresAt, now(), versions))!;
  });

  app.get('/keys', async (request) => {
    // The keys of the page's mode (the test/live switch); a key of either mode is created from either view.
    const mode = dataModeOf(request.query);
    const page = parseKeyPageQuery(withoutMode(request.query));
    const { keys, next } = await listSellerKeysPage(database, session(request).sellerId, { ...page, mode }, now());
    return { keys, next_cursor: next && encodeKeyCursor(next) };
  });

  app.post('/keys', charged, async (request, reply) => {
    const at = now();
    const input = parseNewKey(requireBody(request), at);
    const { sellerId } = session(request);
    const created = await audited(database, dashboardAudit(request), (trx) => createSellerKey(trx, sellerId, input, at),
      (key) => ({ sellerId, action: 'api_key.created', targetId: key.id }), at);
    reply.code(201);
    return created;
  });

  app.post<KeyRoute>('/keys/:id/revoke', charged, async (request) => {
    const { sellerId } = session(request);
    const key = await audited(database, dashboardAudit(request), (trx) => revokeSellerKey(trx, sellerId, request.params.id, now()),
      (revoked) => revoked && { sellerId, action: 'api_key.revoked', targetId: revoked.id }, now());
    if (!key) throw dashboardErrors.keyNotFound();
    return key;
  });

  // A new key now and the old one expiring after the overlap: one transaction, both audited.
  app.post<KeyRoute>('/keys/:id/roll', charged, async (request, reply) => {
    const at = now();
    const { overlapMs } = parseKeyRoll(requireBody(request));
    const { sellerId } = session(request);
    const context = dashboardAudit(request);
    const rolled = await audited(
      database,
      context,
      async (trx) => {
        const result = await rollSellerKey(trx, sellerId, request.params.id, overlapMs, at);
        if (typeof result === 'object') {
          const details = { rolled_from: result.previous.id };
          await writeAuditRow(trx.db, context, { sellerId, action: 'api_key.created', targetId: result.key.id, details }, at);
        }
        return result;
      },
      (result) => (typeof result === 'object' ? { sellerId, action: 'api_key.rolled', targetId: result.previous.id, details: rollDetails(result) } : undefined),
      at,
    );
    if (!rolled) throw dashboardErrors.keyNotFound();
    if (rolled === 'inactive') throw dashboardErrors.keyNotRollable();
    reply.code(201);
    return rolled;
  });

  app.delete<KeyRoute>('/keys/:id', charged, async (request, reply) => {
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
