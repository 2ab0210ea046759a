import { apiKeyDisplayPrefix, createWebhookService, readApiKey, type ApiVersion, type Clock, type WebhookService } from '@customers-api/core';
import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit-actions.js';
import type { DatabaseHandle } from '../db/connect.js';
import { SqlWebhookStore } from '../webhooks/sql-webhook-store.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { headerReader } from './header-reader.js';
import { clientRequestIdOf } from './request-id.js';

export interface WebhookServiceSettings {
  database: DatabaseHandle;
  /** The box the dashboard and the delivery worker use: one key for every endpoint's secret. */
  box: SecretBox;
  allowPrivate: boolean;
  versions: readonly ApiVersion[];
  /** The app's one timestamp clock (buildApp's, which the customer service uses too): created_at, retention, overlaps. */
  clock: Clock;
  /** The app's wall clock: the audit rows' time. */
  now: () => Date;
}

/** Core's webhook service for one actor: every change it makes is audited for `audit`. */
export type WebhookServiceFor = (audit: AuditContext) => WebhookService;

/**
 * Core's webhook-endpoint and event rules over the SQL store, one service per actor: the public API (an API key)
 * and the dashboard (a session) make their changes through the same rules, clock and store. Cheap to make (no I/O).
 *
 * @example
 * const webhooksFor = createWebhookServices(settings);
 * await webhooksFor(apiKeyAudit(request)).replay(seller, id, body);
 */
export function createWebhookServices(settings: WebhookServiceSettings): WebhookServiceFor {
  return (audit) =>
    createWebhookService({
      store: new SqlWebhookStore(settings.database, settings.box, audit, settings.now),
      allowPrivate: settings.allowPrivate,
      versions: settings.versions,
      clock: settings.clock,
    });
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
 * The webhook service of a public API request, audited for that request's key.
 *
 * @example
 * const webhooks = webhooksFor(request);
 */
export function createApiWebhooks(services: WebhookServiceFor): (request: FastifyRequest) => WebhookService {
  return (request) => services(apiKeyAudit(request));
}
