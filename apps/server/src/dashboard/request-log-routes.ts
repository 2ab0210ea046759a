import { errors } from '@customers-api/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { canonicalUuid } from '../db/uuid.js';
import {
  detailedRequestLog,
  findRequestLog,
  listedRequestLog,
  listRequestLogs,
  type RequestLogFilters,
} from '../http/request-logs/request-log-reads.js';
import { parseDeliveryCursor } from '../webhooks/delivery-pages.js';
import { dashboardErrors } from './dashboard-errors.js';
import { dateTimeOf, onlyKnown, pageOf, single, type Query } from './page-query.js';

const PARAMETERS = ['request_id', 'status_class', 'method', 'path', 'key_id', 'mode', 'since', 'until', 'cursor', 'limit'];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'];
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];

/** The Request logs page's query (openapi.dashboard.yaml, listRequestLogs), or core's 400 naming a parameter. */
export function parseRequestLogQuery(query: Query): RequestLogFilters {
  onlyKnown(query, PARAMETERS);
  const { beforeId, limit } = pageOf(query);
  const filters: RequestLogFilters = { limit, ...(beforeId !== undefined ? { beforeId } : {}) };
  const requestId = single(query, 'request_id');
  if (requestId !== undefined) {
    if (requestId.length === 0 || requestId.length > 128) throw errors.badRequest('request_id must be 1 to 128 characters', 'request_id');
    filters.requestId = requestId;
  }
  const statusClass = single(query, 'status_class');
  if (statusClass !== undefined) {
    if (!STATUS_CLASSES.includes(statusClass)) throw errors.badRequest(`status_class must be one of ${STATUS_CLASSES.join(', ')}`, 'status_class');
    filters.statusClass = Number(statusClass[0]);
  }
  const method = single(query, 'method');
  if (method !== undefined) {
    if (!METHODS.includes(method)) throw errors.badRequest(`method must be one of ${METHODS.join(', ')}`, 'method');
    filters.method = method;
  }
  const path = single(query, 'path');
  if (path !== undefined) {
    if (!path.startsWith('/') || path.length > 2048) throw errors.badRequest('path must start with / and be at most 2048 characters', 'path');
    filters.pathIsPrefix = path.endsWith('*');
    filters.path = filters.pathIsPrefix ? path.slice(0, -1) : path;
  }
  const keyId = single(query, 'key_id');
  if (keyId !== undefined) {
    const id = canonicalUuid(keyId);
    if (!id) throw errors.badRequest('key_id must be an API key id (a UUID)', 'key_id');
    filters.keyId = id;
  }
  const mode = single(query, 'mode');
  if (mode !== undefined) {
    if (mode !== 'live' && mode !== 'test') throw errors.badRequest('mode must be one of live, test', 'mode');
    filters.mode = mode;
  }
  const since = dateTimeOf(query, 'since');
  if (since !== undefined) filters.since = since;
  const until = dateTimeOf(query, 'until');
  if (until !== undefined) filters.until = until;
  return filters;
}

/**
 * The JSON behind the Request logs page (openapi.dashboard.yaml, tag Request logs): the signed-in seller's own
 * rows only; another seller's row is a 404 like a missing one.
 */
export function registerRequestLogRoutes(app: FastifyInstance, { database }: { database: DatabaseHandle }): void {
  app.get('/request-logs', async (request: FastifyRequest<{ Querystring: Query }>) => {
    const filters = parseRequestLogQuery(request.query);
    const rows = await listRequestLogs(database, request.dashboardSession!.sellerId, filters);
    const page = rows.slice(0, filters.limit);
    return {
      request_logs: page.map(listedRequestLog),
      next_cursor: rows.length > filters.limit ? String(page.at(-1)!.id) : null,
    };
  });

  app.get('/request-logs/:id', async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const id = parseDeliveryCursor(request.params.id);
    const row = id === undefined ? undefined : await findRequestLog(database, request.dashboardSession!.sellerId, id);
    if (!row) throw dashboardErrors.requestLogNotFound();
    return detailedRequestLog(row);
  });
}
