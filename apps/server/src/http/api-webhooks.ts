import { apiKeyDisplayPrefix, createWebhookService, readApiKey, type ApiVersion, type Clock, type WebhookService } from '@customers-api/core';
import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit-actions.js';
import type { DatabaseHandle } from '../db/connect.js';
import { SqlWebhookStore } from '../webhooks/sql-webhook-store.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { headerReader } from './header-reader.js';
import { clientRequestIdOf } from './request-id.js';

export interface ApiWebhookOptions {
  database: DatabaseHandle;
  /** The box the dashboard and the delivery worker use: one key for every endpoint's secret. */
  box: SecretBox;
  allowPrivate: boolean;
  versions: readonly ApiVersion[];
  clock?: Clock | undefined;
}

/**
 * The audit context of a public API request: the API key (by its display prefix; the key's id is not read again
 * after authentication), the request id and the client address (unless the operator turned addresses off).
 */
export function apiKeyAudit(request: FastifyRequest): AuditContext {
  const key = readApiKey(headerReader(request.headers));
  return {
    actor: { type: 'api_key', id: null, label: key === undefined ? null : apiKeyDisplayPrefix(key) },
    requestId: request.id,
    clientRequestId: clientRequestIdOf(request),
    clientAddress: request.server.auditClientAddresses === false ? null : request.ip,
  };
}

/**
 * Core's webhook-endpoint and event rules over the SQL store, for one request: every change it makes is audited
 * for that request's key. Cheap to make (no I/O).
 *
 * @example
 * const webhooks = webhooksFor(request);
 */
export function createApiWebhooks(options: ApiWebhookOptions): (request: FastifyRequest) => WebhookService {
  return (request) =>
    createWebhookService({
      store: new SqlWebhookStore(options.database, options.box, apiKeyAudit(request)),
      allowPrivate: options.allowPrivate,
      versions: options.versions,
      ...(options.clock ? { clock: options.clock } : {}),
    });
}
