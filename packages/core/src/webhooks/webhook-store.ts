import type { ListPosition } from '../customers/cursor.js';
import type { IdempotencyRecord } from '../store.js';
import type { Mode, Tenant } from '../tenancy/tenant.js';
import type { CustomerEvent, CustomerEventType } from '../types.js';

/**
 * A webhook endpoint as a store keeps it: the API's fields plus its seller and secrets. The secrets are plain
 * text here; a store that writes them to disk seals them (the server's SecretBox), never hashes them (signing
 * needs them).
 */
export interface StoredWebhookEndpoint {
  id: string;
  sellerId: string;
  /** The mode it was created in: it receives only that mode's events and is seen only by keys of that mode. */
  mode: Mode;
  /** Normalized (core's normalizeWebhookUrl). */
  url: string;
  /** In the order of CUSTOMER_EVENT_TYPES, without repeats. */
  events: CustomerEventType[];
  description: string;
  apiVersion: string;
  /** ISO 8601 UTC; null while enabled. */
  disabledAt: string | null;
  /** ISO 8601 UTC; null while no delivery was given up since the last success. */
  failingSince: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** What an update changes (already validated; `url` normalized). Omitted: unchanged. */
export interface WebhookEndpointChanges {
  url?: string;
  events?: CustomerEventType[];
  description?: string;
  apiVersion?: string;
  /** A time: disable (kept when already disabled); null: enable. */
  disabledAt?: string | null;
}

export type EndpointInsertResult =
  | { kind: 'created'; endpoint: StoredWebhookEndpoint }
  /** The seller already has as many endpoints as its cap: `cap`, or the seller's own when the store keeps one. */
  | { kind: 'limit_reached'; limit: number }
  /** Another endpoint of the seller has this URL. */
  | { kind: 'url_taken' }
  /** An unexpired create with this Idempotency-Key: the endpoint it created (as it is now) and its fingerprint. */
  | { kind: 'idempotent_replay'; endpoint: StoredWebhookEndpoint; fingerprint: string };

export type EndpointUpdateResult =
  | { kind: 'updated'; endpoint: StoredWebhookEndpoint }
  | { kind: 'not_found' }
  | { kind: 'url_taken' };

/** One page of a list, newest first (`created_at` desc, then `id` desc), strictly after `after`. */
export interface EndpointPageRequest {
  limit: number;
  after?: ListPosition | undefined;
}

/** One page of events, newest first, matching every given filter; timestamps ISO 8601 UTC with milliseconds. */
export interface EventPageRequest {
  limit: number;
  after?: ListPosition | undefined;
  type?: CustomerEventType | undefined;
  customerId?: string | undefined;
  createdFrom?: string | undefined;
  createdBefore?: string | undefined;
  /** Only events this endpoint (of the seller: the service checked) has not acknowledged. */
  undeliveredTo?: string | undefined;
  /** Only events created at or after this instant: the retention horizon. */
  notBefore: string;
}

/** Which of an endpoint's events to queue again, oldest first (`created_at` asc, then `id` asc). */
export interface ReplayRequest {
  since: string;
  /** Exclusive. */
  until: string;
  onlyUndelivered: boolean;
  /** Only events strictly after this position in the oldest-first order. */
  after?: ListPosition | undefined;
  /** At most this many are queued; `more` says whether another matched. */
  limit: number;
  /** When the queued deliveries become due (now). */
  now: string;
}

export type ReplayResult =
  /** `last`: the position of the last event queued (undefined when none); `more`: whether more matched than `limit`. */
  | { kind: 'queued'; queued: number; last: ListPosition | undefined; more: boolean }
  | { kind: 'not_found' }
  | { kind: 'disabled' };

/**
 * What the webhook-endpoint and event rules need from storage. Every method is scoped to one {@link Tenant} (a
 * seller in one mode): another seller's endpoint or event, or one of the other mode, is never returned or changed
 * (the same answer as a missing one), and a change of one mode's customer goes to that mode's endpoints only. Events are the
 * store's record of customer changes that some endpoint of the seller was subscribed to when they happened;
 * each has one delivery per such endpoint.
 */
export interface WebhookStore {
  /**
   * Inserts a fully built endpoint. Atomic against concurrent calls: the cap, the URL's uniqueness within the
   * seller and the idempotency record are decided together with the insert.
   */
  insertEndpoint(
    endpoint: StoredWebhookEndpoint,
    options: { cap: number; idempotency?: IdempotencyRecord | undefined },
  ): Promise<EndpointInsertResult>;
  findEndpoint(tenant: Tenant, id: string): Promise<StoredWebhookEndpoint | undefined>;
  listEndpoints(tenant: Tenant, page: EndpointPageRequest): Promise<StoredWebhookEndpoint[]>;
  /** Applies `changes`; URL uniqueness (excluding this endpoint) is enforced atomically. */
  updateEndpoint(tenant: Tenant, id: string, changes: WebhookEndpointChanges): Promise<EndpointUpdateResult>;
  /** Deletes the endpoint and its deliveries; false when the seller has no such endpoint. */
  deleteEndpoint(tenant: Tenant, id: string): Promise<boolean>;
  /**
   * Makes `secret` current; the current one becomes the previous until `previousExpiresAt` (null: dropped at
   * once). Undefined when the seller has no such endpoint.
   */
  rotateSecret(
    tenant: Tenant,
    id: string,
    secret: string,
    previousExpiresAt: string | null,
  ): Promise<StoredWebhookEndpoint | undefined>;
  /** The seller's events, in the latest API version (`api_version` set to it). */
  listEvents(tenant: Tenant, page: EventPageRequest): Promise<CustomerEvent[]>;
  /** The seller's event with this id created at or after `notBefore`, in the latest API version. */
  findEvent(tenant: Tenant, id: string, notBefore: string): Promise<CustomerEvent | undefined>;
  /**
   * Queues the endpoint's matching deliveries again (due at `now`, attempts from zero), at most `limit`, oldest
   * first: those given up, and with `onlyUndelivered: false` those delivered too. A delivery already waiting
   * (pending or retrying) is neither queued twice nor counted. Reads at most `limit + 1` deliveries through an
   * index, whatever the endpoint's backlog. A disabled endpoint queues nothing.
   */
  replayEvents(tenant: Tenant, endpointId: string, request: ReplayRequest): Promise<ReplayResult>;
}
