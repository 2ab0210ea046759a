import { type Clock, createMonotonicClock } from '../customers/clock.js';
import { testClockTimestamp } from '../tenancy/test-clock.js';
import { tenantKey, tenantOf } from '../tenancy/tenant.js';
import { decodeCursor, encodeCursor, scopeOf } from '../customers/cursor.js';
import { idempotencyRecord } from '../customers/idempotency.js';
import { uuidV7 } from '../customers/uuid-v7.js';
import { errors } from '../errors/registry.js';
import { isEventId } from '../events/customer-change.js';
import { WEBHOOK_EVENT_RETENTION_MS } from '../events/delivery-policy.js';
import { generateWebhookSecret } from '../events/webhook-signature.js';
import type {
  CreatedWebhookEndpoint,
  CustomerEvent,
  EventList,
  SellerContext,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookReplayResult,
} from '../types.js';
import { isIdempotencyKey } from '../validation/validate.js';
import { LATEST_API_VERSION, openApiVersions } from '../versions/api-version.js';
import type { ApiVersion } from '../versions/api-version.js';
import { endpointBody } from './endpoint-shape.js';
import { DEFAULT_WEBHOOK_ENDPOINT_LIMIT, duplicateUrlMessage, endpointLimitMessage } from './endpoint-rules.js';
import {
  canonicalEndpointId,
  parseEndpointCreate,
  parseEndpointUpdate,
  parseEndpointsQuery,
  parseEventsQuery,
  parseReplay,
  parseRotation,
} from './webhook-input.js';
import type { StoredWebhookEndpoint, WebhookStore } from './webhook-store.js';

/** openapi.yaml: one replay request queues at most this many events (the dashboard's "resend all failed" too). */
export const WEBHOOK_REPLAY_LIMIT = 1000;

export interface WebhookServiceOptions {
  store: WebhookStore;
  /** Timestamps; defaults to a strictly increasing wall clock. */
  clock?: Clock;
  /** New endpoint ids; defaults to time-ordered UUIDs. */
  newId?: () => string;
  /** New secrets; defaults to `whsec_` and 24 random bytes. */
  newSecret?: () => string;
  /** Loopback and private URLs too (local development, `--allow-private-webhooks`, the mocks). */
  allowPrivate?: boolean;
  /** The versions an endpoint may be pinned to; openapi.yaml's by default. */
  versions?: readonly ApiVersion[];
}

export interface EndpointCreateOptions {
  /** The raw `Idempotency-Key` header, when the request carried one. */
  idempotencyKey?: string | undefined;
}

/** The webhook-endpoint and event operations, each taking the raw parsed body or query. Failures throw ApiError. */
export interface WebhookService {
  listEndpoints(seller: SellerContext, query: string): Promise<WebhookEndpointList>;
  createEndpoint(seller: SellerContext, body: unknown, options?: EndpointCreateOptions): Promise<CreatedWebhookEndpoint>;
  getEndpoint(seller: SellerContext, id: string): Promise<WebhookEndpoint>;
  updateEndpoint(seller: SellerContext, id: string, body: unknown): Promise<WebhookEndpoint>;
  deleteEndpoint(seller: SellerContext, id: string): Promise<void>;
  /** `body`: undefined when the request had none (every property is optional). */
  rotateSecret(seller: SellerContext, id: string, body: unknown): Promise<CreatedWebhookEndpoint>;
  replay(seller: SellerContext, id: string, body: unknown): Promise<WebhookReplayResult>;
  /** Events in the latest version; the operation table writes them in the caller's. */
  listEvents(seller: SellerContext, query: string): Promise<EventList>;
  getEvent(seller: SellerContext, id: string): Promise<CustomerEvent>;
}

/**
 * The rules of webhook endpoints and events over any {@link WebhookStore}: validation from openapi.yaml, the
 * webhook URL rules, the endpoint cap, secrets shown once, replays capped at {@link WEBHOOK_REPLAY_LIMIT}, the
 * 30-day event retention and tenancy. Validation comes before any lookup, as for customers.
 *
 * @example
 * const webhooks = createWebhookService({ store: new MemoryWebhookStore(customerStore) });
 * const { secret } = await webhooks.createEndpoint(seller, { url: 'https://crm.example.com/hooks' });
 */
export function createWebhookService(options: WebhookServiceOptions): WebhookService {
  const { store } = options;
  const clock = options.clock ?? createMonotonicClock();
  // Test mode's timestamps follow the seller's test clock (read once per request by the host).
  const stamp = (seller: SellerContext) => testClockTimestamp(clock, seller);
  const newId = options.newId ?? uuidV7;
  const newSecret = options.newSecret ?? generateWebhookSecret;
  const allowPrivate = options.allowPrivate ?? false;
  const open = (now: string) => openApiVersions(() => new Date(now), options.versions);
  const horizon = (now: string) => new Date(Date.parse(now) - WEBHOOK_EVENT_RETENTION_MS).toISOString();

  async function find(seller: SellerContext, rawId: string): Promise<StoredWebhookEndpoint> {
    const id = canonicalEndpointId(rawId);
    const endpoint = id === undefined ? undefined : await store.findEndpoint(tenantOf(seller), id);
    if (!endpoint) throw errors.webhookEndpointNotFound();
    return endpoint;
  }

  return {
    async listEndpoints(seller, query) {
      const { limit, cursor } = parseEndpointsQuery(query);
      const scope = scopeOf(tenantKey(tenantOf(seller)), {});
      const after = cursor === undefined ? undefined : decodeCursor(cursor, scope);
      const rows = await store.listEndpoints(tenantOf(seller), { limit: limit + 1, after });
      const now = stamp(seller);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > limit && last !== undefined;
      return {
        data: page.map((endpoint) => endpointBody(endpoint, now)),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor({ createdAt: last.createdAt, id: last.id }, scope) : null,
      };
    },

    async createEndpoint(seller, body, { idempotencyKey } = {}) {
      if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) throw errors.idempotencyKeyMalformed();
      const now = stamp(seller);
      const input = parseEndpointCreate(body, { allowPrivate, openVersions: open(now) });
      const id = newId();
      const secret = newSecret();
      const endpoint: StoredWebhookEndpoint = {
        id,
        sellerId: seller.sellerId,
        mode: tenantOf(seller).mode,
        url: input.url,
        events: input.events,
        description: input.description,
        apiVersion: input.apiVersion ?? pinnedOrLatest(seller, open(now)),
        disabledAt: null,
        failingSince: null,
        secret,
        previousSecret: null,
        previousSecretExpiresAt: null,
        createdAt: now,
      };
      const cap = seller.webhookEndpointLimit ?? DEFAULT_WEBHOOK_ENDPOINT_LIMIT;
      const idempotency = idempotencyKey === undefined ? undefined : await idempotencyRecord(idempotencyKey, body, now);
      const result = await store.insertEndpoint(endpoint, { cap, idempotency });
      switch (result.kind) {
        case 'created':
          return { ...endpointBody(result.endpoint, now), secret: result.endpoint.secret };
        case 'idempotent_replay':
          if (result.fingerprint !== idempotency?.fingerprint) throw errors.idempotencyKeyReused();
          return { ...endpointBody(result.endpoint, now), secret: result.endpoint.secret };
        case 'limit_reached':
          throw errors.webhookEndpointLimitReached(endpointLimitMessage(result.limit));
        case 'url_taken':
          throw errors.webhookUrlTaken(duplicateUrlMessage(endpoint.url));
      }
    },

    async getEndpoint(seller, id) {
      return endpointBody(await find(seller, id), stamp(seller));
    },

    async updateEndpoint(seller, rawId, body) {
      const now = stamp(seller);
      const changes = parseEndpointUpdate(body, { allowPrivate, openVersions: open(now), now });
      const id = canonicalEndpointId(rawId);
      if (id === undefined) throw errors.webhookEndpointNotFound();
      if (changes.disabledAt !== undefined && changes.disabledAt !== null) {
        // Disabling a disabled endpoint keeps the time it was disabled.
        const current = await find(seller, id);
        if (current.disabledAt !== null) changes.disabledAt = current.disabledAt;
      }
      const result = await store.updateEndpoint(tenantOf(seller), id, changes);
      if (result.kind === 'not_found') throw errors.webhookEndpointNotFound();
      if (result.kind === 'url_taken') throw errors.webhookUrlTaken(duplicateUrlMessage(changes.url ?? ''));
      return endpointBody(result.endpoint, now);
    },

    async deleteEndpoint(seller, rawId) {
      const id = canonicalEndpointId(rawId);
      if (id === undefined || !(await store.deleteEndpoint(tenantOf(seller), id))) throw errors.webhookEndpointNotFound();
    },

    async rotateSecret(seller, rawId, body) {
      const { overlapSeconds } = parseRotation(body);
      const id = canonicalEndpointId(rawId);
      if (id === undefined) throw errors.webhookEndpointNotFound();
      const now = stamp(seller);
      const until = overlapSeconds === 0 ? null : new Date(Date.parse(now) + overlapSeconds * 1000).toISOString();
      const rotated = await store.rotateSecret(tenantOf(seller), id, newSecret(), until);
      if (!rotated) throw errors.webhookEndpointNotFound();
      return { ...endpointBody(rotated, now), secret: rotated.secret };
    },

    async replay(seller, rawId, body) {
      const now = stamp(seller);
      const input = parseReplay(body, now);
      const endpoint = await find(seller, rawId);
      const scope = scopeOf(tenantKey(tenantOf(seller)), {
        endpoint: endpoint.id,
        since: input.since,
        until: input.until,
        only_undelivered: String(input.onlyUndelivered),
      });
      const after = input.cursor === undefined ? undefined : decodeCursor(input.cursor, scope, isEventId);
      const since = input.since > horizon(now) ? input.since : horizon(now);
      const result = await store.replayEvents(tenantOf(seller), endpoint.id, {
        since,
        until: input.until ?? now,
        onlyUndelivered: input.onlyUndelivered,
        after,
        limit: WEBHOOK_REPLAY_LIMIT,
        now,
      });
      if (result.kind === 'not_found') throw errors.webhookEndpointNotFound();
      if (result.kind === 'disabled') throw errors.webhookEndpointDisabled();
      const more = result.more && result.last !== undefined;
      return {
        queued: result.queued,
        has_more: more,
        next_cursor: more && result.last ? encodeCursor(result.last, scope) : null,
      };
    },

    async listEvents(seller, query) {
      const plan = parseEventsQuery(query);
      const scope = scopeOf(tenantKey(tenantOf(seller)), plan.filters);
      const after = plan.cursor === undefined ? undefined : decodeCursor(plan.cursor, scope, isEventId);
      if (plan.undeliveredTo !== undefined && !(await store.findEndpoint(tenantOf(seller), plan.undeliveredTo))) {
        throw errors.badRequest('undelivered_to is not a webhook endpoint of this account');
      }
      const rows = await store.listEvents(tenantOf(seller), {
        limit: plan.limit + 1,
        after,
        type: plan.type,
        customerId: plan.customerId,
        createdFrom: plan.createdFrom,
        createdBefore: plan.createdBefore,
        undeliveredTo: plan.undeliveredTo,
        notBefore: horizon(stamp(seller)),
      });
      const page = rows.slice(0, plan.limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > plan.limit && last !== undefined;
      return {
        data: page,
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor({ createdAt: last.created_at, id: last.id }, scope) : null,
      };
    },

    async getEvent(seller, id) {
      const event = isEventId(id) ? await store.findEvent(tenantOf(seller), id, horizon(stamp(seller))) : undefined;
      if (!event) throw errors.eventNotFound();
      return event;
    },
  };
}

/**
 * The seller's pinned version (as openapi.yaml and the dashboard's spec say: "the seller's pinned version when
 * omitted"), even one past its sunset or no longer listed: the seller's requests are answered in it, and its
 * events are written in it too. The latest when the seller is pinned to none.
 */
function pinnedOrLatest(seller: SellerContext, open: readonly string[]): string {
  return seller.apiVersion || (open[0] ?? LATEST_API_VERSION);
}
