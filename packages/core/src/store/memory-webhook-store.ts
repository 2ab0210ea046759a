import type { ListPosition } from '../customers/cursor.js';
import { type CustomerChange, customerEvent } from '../events/customer-change.js';
import type { IdempotencyRecord } from '../store.js';
import { type Mode, type Tenant, tenantKey } from '../tenancy/tenant.js';
import type { CustomerEvent } from '../types.js';
import type {
  EndpointInsertResult,
  EndpointPageRequest,
  EndpointUpdateResult,
  EventPageRequest,
  ReplayRequest,
  ReplayResult,
  StoredWebhookEndpoint,
  WebhookEndpointChanges,
  WebhookStore,
} from '../webhooks/webhook-store.js';
import type { MemoryCustomerStore } from './memory-store.js';

/** A delivery's state, as the server's deliveries have it. */
export type MemoryDeliveryState = 'pending' | 'retrying' | 'delivered' | 'failed';

/** A delivery that became due (a new event, or a replay): what a host that sends webhooks sends. */
export interface DueDelivery {
  sellerId: string;
  mode: Mode;
  endpoint: StoredWebhookEndpoint;
  /** In the latest version; render it in the endpoint's with `eventInVersion`. */
  event: CustomerEvent;
}

interface StoredEvent {
  sellerId: string;
  mode: Mode;
  event: CustomerEvent;
  customerId: string;
  /** endpoint id → state. */
  deliveries: Map<string, MemoryDeliveryState>;
}

interface RememberedEndpointCreate {
  record: IdempotencyRecord;
  endpointId: string;
}

/** The newest events kept per seller (the 30-day horizon applies on top). */
const KEPT_EVENTS = 10_000;

/**
 * A {@link WebhookStore} in memory beside a {@link MemoryCustomerStore}, for the mocks and tests: each change of the
 * customer store becomes an event with one `pending` delivery per endpoint of its seller that is enabled and
 * subscribed to its type, when the change is made (a change no endpoint wanted is not recorded). Hosts that send
 * webhooks subscribe with {@link onDue} and report outcomes with {@link setDeliveryState}.
 *
 * @example
 * const customers = new MemoryCustomerStore();
 * const webhooks = new MemoryWebhookStore(customers);
 */
export class MemoryWebhookStore implements WebhookStore {
  // Every map is keyed by tenantKey (a seller in one mode): a change reaches only its own mode's endpoints.
  /** tenant → (endpoint id → endpoint). */
  readonly #endpoints = new Map<string, Map<string, StoredWebhookEndpoint>>();
  readonly #idempotency = new Map<string, RememberedEndpointCreate>();
  /** tenant → events, oldest first. */
  readonly #events = new Map<string, StoredEvent[]>();
  readonly #dueListeners = new Set<(due: DueDelivery) => void>();

  constructor(customers: MemoryCustomerStore) {
    customers.onChange((change) => this.#record(change));
  }

  #record(change: CustomerChange): void {
    const tenant = tenantKey({ sellerId: change.sellerId, mode: change.mode });
    const endpoints = [...(this.#endpoints.get(tenant)?.values() ?? [])].filter(
      (endpoint) => endpoint.disabledAt === null && endpoint.events.includes(change.type),
    );
    if (endpoints.length === 0) return;
    const stored: StoredEvent = {
      sellerId: change.sellerId,
      mode: change.mode,
      event: customerEvent(change),
      customerId: change.customerId,
      // Stryker disable next-line StringLiteral: no reader tells 'pending' from another state that is neither delivered nor failed (undelivered, not replayed, no due)
      deliveries: new Map(endpoints.map((endpoint) => [endpoint.id, 'pending'])),
    };
    let events = this.#events.get(tenant);
    if (!events) this.#events.set(tenant, (events = []));
    events.push(stored);
    if (events.length > KEPT_EVENTS) events.splice(0, events.length - KEPT_EVENTS);
    for (const endpoint of endpoints) this.#due(endpoint, stored);
  }

  #due(endpoint: StoredWebhookEndpoint, stored: StoredEvent): void {
    for (const listener of this.#dueListeners) {
      const due = { sellerId: stored.sellerId, mode: stored.mode, endpoint: structuredClone(endpoint), event: structuredClone(stored.event) };
      queueMicrotask(() => listener(due));
    }
  }

  #sellerEndpoints(sellerId: string): Map<string, StoredWebhookEndpoint> {
    let endpoints = this.#endpoints.get(sellerId);
    if (!endpoints) this.#endpoints.set(sellerId, (endpoints = new Map()));
    return endpoints;
  }

  #urlTaken(sellerId: string, url: string, exceptId?: string): boolean {
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: both callers made or found the seller's map first, so it exists
    for (const endpoint of this.#endpoints.get(sellerId)?.values() ?? []) {
      if (endpoint.url === url && endpoint.id !== exceptId) return true;
    }
    return false;
  }

  async insertEndpoint(
    endpoint: StoredWebhookEndpoint,
    options: { cap: number; idempotency?: IdempotencyRecord | undefined },
  ): Promise<EndpointInsertResult> {
    const sellerId = tenantKey(endpoint);
    const key = options.idempotency && `${sellerId}\n${options.idempotency.key}`;
    if (key) {
      const remembered = this.#idempotency.get(key);
      // Stryker disable next-line OptionalChaining: a remembered create implies its tenant's map (the wipe forgets both)
      const earlier = remembered && this.#endpoints.get(sellerId)?.get(remembered.endpointId);
      if (remembered && earlier && remembered.record.expiresAt > endpoint.createdAt) {
        return { kind: 'idempotent_replay', endpoint: structuredClone(earlier), fingerprint: remembered.record.fingerprint };
      }
    }
    const endpoints = this.#sellerEndpoints(sellerId);
    if (endpoints.size >= options.cap) return { kind: 'limit_reached', limit: options.cap };
    if (this.#urlTaken(sellerId, endpoint.url)) return { kind: 'url_taken' };
    endpoints.set(endpoint.id, structuredClone(endpoint));
    // Stryker disable next-line LogicalOperator: key is set exactly when options.idempotency is
    if (key && options.idempotency) this.#idempotency.set(key, { record: { ...options.idempotency }, endpointId: endpoint.id });
    return { kind: 'created', endpoint: structuredClone(endpoint) };
  }

  async findEndpoint(tenant: Tenant, id: string): Promise<StoredWebhookEndpoint | undefined> {
    const endpoint = this.#endpoints.get(tenantKey(tenant))?.get(id);
    return endpoint && structuredClone(endpoint);
  }

  async listEndpoints(tenant: Tenant, page: EndpointPageRequest): Promise<StoredWebhookEndpoint[]> {
    const rows = [...(this.#endpoints.get(tenantKey(tenant))?.values() ?? [])].map((e) => ({ ...e, position: { createdAt: e.createdAt, id: e.id } }));
    return newestFirst(rows, page.after)
      .slice(0, page.limit)
      .map(({ position: _position, ...endpoint }) => structuredClone(endpoint));
  }

  async updateEndpoint(tenant: Tenant, id: string, changes: WebhookEndpointChanges): Promise<EndpointUpdateResult> {
    const current = this.#endpoints.get(tenantKey(tenant))?.get(id);
    if (!current) return { kind: 'not_found' };
    if (changes.url !== undefined && this.#urlTaken(tenantKey(tenant), changes.url, id)) return { kind: 'url_taken' };
    if (changes.url !== undefined) current.url = changes.url;
    if (changes.events !== undefined) current.events = [...changes.events];
    if (changes.description !== undefined) current.description = changes.description;
    if (changes.apiVersion !== undefined) current.apiVersion = changes.apiVersion;
    if (changes.disabledAt !== undefined) current.disabledAt = changes.disabledAt;
    return { kind: 'updated', endpoint: structuredClone(current) };
  }

  async deleteEndpoint(tenant: Tenant, id: string): Promise<boolean> {
    const endpoints = this.#endpoints.get(tenantKey(tenant));
    if (!endpoints?.delete(id)) return false;
    for (const stored of this.#events.get(tenantKey(tenant)) ?? []) stored.deliveries.delete(id);
    return true;
  }

  async rotateSecret(
    tenant: Tenant,
    id: string,
    secret: string,
    previousExpiresAt: string | null,
  ): Promise<StoredWebhookEndpoint | undefined> {
    const current = this.#endpoints.get(tenantKey(tenant))?.get(id);
    if (!current) return undefined;
    current.previousSecret = previousExpiresAt === null ? null : current.secret;
    current.previousSecretExpiresAt = previousExpiresAt;
    current.secret = secret;
    return structuredClone(current);
  }

  async listEvents(tenant: Tenant, page: EventPageRequest): Promise<CustomerEvent[]> {
    const matching = (this.#events.get(tenantKey(tenant)) ?? []).filter((stored) => {
      const { event } = stored;
      if (event.created_at < page.notBefore) return false;
      if (page.type !== undefined && event.type !== page.type) return false;
      if (page.customerId !== undefined && stored.customerId !== page.customerId) return false;
      if (page.createdFrom !== undefined && event.created_at < page.createdFrom) return false;
      if (page.createdBefore !== undefined && event.created_at >= page.createdBefore) return false;
      if (page.undeliveredTo !== undefined) {
        const state = stored.deliveries.get(page.undeliveredTo);
        if (state === undefined || state === 'delivered') return false;
      }
      return true;
    });
    const rows = matching.map((stored) => ({ stored, position: positionOf(stored) }));
    return newestFirst(rows, page.after)
      .slice(0, page.limit)
      .map(({ stored }) => structuredClone(stored.event));
  }

  async findEvent(tenant: Tenant, id: string, notBefore: string): Promise<CustomerEvent | undefined> {
    const stored = (this.#events.get(tenantKey(tenant)) ?? []).find((candidate) => candidate.event.id === id);
    return stored && stored.event.created_at >= notBefore ? structuredClone(stored.event) : undefined;
  }

  async replayEvents(tenant: Tenant, endpointId: string, request: ReplayRequest): Promise<ReplayResult> {
    const endpoint = this.#endpoints.get(tenantKey(tenant))?.get(endpointId);
    if (!endpoint) return { kind: 'not_found' };
    if (endpoint.disabledAt !== null) return { kind: 'disabled' };
    const again: readonly MemoryDeliveryState[] = request.onlyUndelivered ? ['failed'] : ['failed', 'delivered'];
    const { after } = request;
    const matching = (this.#events.get(tenantKey(tenant)) ?? [])
      .filter((stored) => {
        const state = stored.deliveries.get(endpointId);
        const at = stored.event.created_at;
        return state !== undefined && again.includes(state) && at >= request.since && at < request.until;
      })
      .filter((stored) => after === undefined || comparePositions(positionOf(stored), after) > 0)
      .sort((a, b) => comparePositions(positionOf(a), positionOf(b)));
    const queued = matching.slice(0, request.limit);
    for (const stored of queued) {
      // Stryker disable next-line StringLiteral: no reader tells 'pending' from another state that is neither delivered nor failed
      stored.deliveries.set(endpointId, 'pending');
      this.#due(endpoint, stored);
    }
    const last = queued[queued.length - 1];
    return { kind: 'queued', queued: queued.length, last: last && positionOf(last), more: matching.length > request.limit };
  }

  /**
   * Calls `listener` (in a microtask) with each delivery that becomes due: one per endpoint for a new event, and
   * each one a replay queued. Returns the unsubscribe.
   *
   * @example
   * const stop = webhooks.onDue(({ endpoint, event }) => send(endpoint, event));
   */
  onDue(listener: (due: DueDelivery) => void): () => void {
    this.#dueListeners.add(listener);
    return () => this.#dueListeners.delete(listener);
  }

  /**
   * Records what became of a delivery (a host's attempt); false when there is no such delivery. A success also
   * ends the endpoint's failing state; a delivery given up starts it.
   *
   * @example
   * webhooks.setDeliveryState(sellerId, event.id, endpoint.id, 'delivered', now);
   */
  setDeliveryState(
    sellerId: string,
    eventId: string,
    endpointId: string,
    state: MemoryDeliveryState,
    at: string,
    mode: Mode = 'live',
  ): boolean {
    const tenant = tenantKey({ sellerId, mode });
    const stored = (this.#events.get(tenant) ?? []).find((candidate) => candidate.event.id === eventId);
    if (!stored?.deliveries.has(endpointId)) return false;
    stored.deliveries.set(endpointId, state);
    // Stryker disable next-line OptionalChaining: a delivery exists only while its endpoint (and so the tenant's map) does
    const endpoint = this.#endpoints.get(tenant)?.get(endpointId);
    if (endpoint && state === 'delivered') endpoint.failingSince = null;
    if (endpoint && state === 'failed') endpoint.failingSince ??= at;
    return true;
  }

  /**
   * Forgets the seller's test endpoints, their idempotency records and test events with their deliveries (the
   * one-call wipe); live ones stay. Returns how many endpoints and events went.
   */
  wipeTestData(sellerId: string): { endpoints: number; events: number } {
    // Stryker disable next-line StringLiteral: tenantKey writes every mode but 'live' alike
    const tenant = tenantKey({ sellerId, mode: 'test' });
    const removed = { endpoints: this.#endpoints.get(tenant)?.size ?? 0, events: this.#events.get(tenant)?.length ?? 0 };
    this.#endpoints.delete(tenant);
    this.#events.delete(tenant);
    // Stryker disable next-line ArrayDeclaration,MethodExpression: a kept record of a wiped endpoint is never replayed (its endpoint is gone): memory only
    for (const key of [...this.#idempotency.keys()]) if (key.startsWith(`${tenant}\n`)) this.#idempotency.delete(key);
    return removed;
  }

  /** Forgets every endpoint, event and idempotency record (listeners stay). */
  clear(): void {
    this.#endpoints.clear();
    this.#idempotency.clear();
    this.#events.clear();
  }
}

function positionOf(stored: StoredEvent): ListPosition {
  return { createdAt: stored.event.created_at, id: stored.event.id };
}

/** Order by created_at, then id (ISO 8601 UTC strings of one format and ids compare as strings). */
function comparePositions(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

/** Newest first, strictly after `after` in that order. */
function newestFirst<T extends { position: ListPosition }>(rows: T[], after: ListPosition | undefined): T[] {
  return rows
    .filter((row) => after === undefined || comparePositions(row.position, after) < 0)
    .sort((a, b) => comparePositions(b.position, a.position));
}
