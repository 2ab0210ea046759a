import {
  API_VERSIONING,
  CUSTOMER_EVENT_TYPES,
  eventInVersion,
  generateWebhookSecret,
  openApiVersions,
  type ApiVersioning,
  isAcknowledged,
  nextRetryDelay,
  type CustomerEvent,
  type CustomerEventType,
  type DueDelivery,
  type MockApi,
} from '@customers-api/core';
import { EntryError } from './entries.js';
import { webhookEntryAt, type WebhookEndpointSeed } from './webhook-entry.js';
import { sendWebhook, type AttemptOutcome, type SendOptions } from './webhook-send.js';

/** A webhook endpoint of the mock (its secret included: the mock has no authentication). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: CustomerEventType[];
  /** The seller whose events it gets, or null for every seller. */
  sellerId: string | null;
  /** The API version its events are written in (`api_version`, `Customers-Version`). */
  apiVersion: string;
  /** A delivery to it was given up after its last retry, and none succeeded since. */
  failing: boolean;
}

export interface DeliveryAttempt extends AttemptOutcome {
  /** ISO 8601: when the attempt started. */
  at: string;
}

/** One event for one endpoint, with every attempt. */
export interface Delivery {
  id: string;
  endpointId: string;
  url: string;
  /** The body sent, in the endpoint's version; its `id` is every attempt's `webhook-id`. */
  event: CustomerEvent;
  state: 'pending' | 'delivered' | 'retrying' | 'failed';
  attempts: DeliveryAttempt[];
  /** ISO 8601, while `retrying`. */
  nextAttemptAt: string | null;
}

/** Starts a timer that calls `run` after `delayMs`; returns its cancel. `run`'s promise says when the retry ended. */
export type Schedule = (delayMs: number, run: () => unknown) => () => void;

export interface WebhookDispatcherOptions extends SendOptions {
  /** The endpoints there from the start and after every `reset()` (the seed file's). */
  endpoints?: WebhookEndpointSeed[];
  /**
   * Starts each retry's timer; default `setTimeout` (unref'd, so pending retries keep no process alive). The
   * mock server passes its mock clock's, so `POST /__mock/clock` runs the retries that became due. Tests
   * pass their own to see the delays asked for and to run retries when they choose.
   */
  schedule?: Schedule;
  /** The retry delays' jitter (0 ≤ r < 1), as `nextRetryDelay` takes it; default `Math.random`. */
  random?: () => number;
  /** The versions events are rendered in (the mock's; tests: a fixture version); openapi.yaml's by default. */
  versioning?: ApiVersioning;
}

/** Delivers the mock's change events to webhook endpoints and remembers what it sent. */
export interface WebhookDispatcher {
  /**
   * Adds an endpoint (secret generated unless given); later changes are delivered to it. Throws a TypeError
   * naming the entry for a bad one (`endpoint.url: must be an http or https URL`, an unknown `sellerId`).
   */
  add(seed: WebhookEndpointSeed): WebhookEndpoint;
  /** The endpoints, oldest first. */
  list(): WebhookEndpoint[];
  /** Removes an endpoint, its deliveries and their retries; false when there is none with this id. */
  remove(id: string): boolean;
  /** The deliveries (the newest 1,000), oldest first. */
  deliveries(): Delivery[];
  /** Attempts every delivery waiting for a retry now; resolves with the deliveries once those and any attempt under way ended. */
  retryNow(): Promise<Delivery[]>;
  /** Resolves once every attempt under way (first attempts queued included) has ended and its retry, if any, is scheduled. */
  settle(): Promise<void>;
  /** Back to the start: the initial endpoints (same ids and secrets), no deliveries, no pending retries. */
  reset(): void;
  /** Stops delivering: cancels retries and stops listening to the mock. */
  close(): void;
}

const KEPT_DELIVERIES = 1000;

interface Tracked {
  delivery: Delivery;
  endpoint: WebhookEndpoint;
  /**
   * For an endpoint its seller registered through the API (core's memory store): its seller, and every secret
   * that signs (two during a rotation's overlap). Outcomes are reported back to the store.
   */
  registered?: { sellerId: string; secrets: string[] };
  /** Sent beside the signed headers: the event's `Customers-Version`. */
  headers: Readonly<Record<string, string>>;
  /** The dispatcher's generation when it was made: a reset or close starts a new one. */
  generation: number;
  /** The attempt under way. */
  running?: Promise<void>;
  cancelRetry?: () => void;
}

const defaultSchedule: Schedule = (delayMs, run) => {
  const timer = setTimeout(run, delayMs);
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * Delivers every event of `api` (`onEvent`) to each endpoint subscribed to its type and seller: signed POSTs
 * (`sendWebhook`), retried on core's schedule (`nextRetryDelay`) until a 2xx or the last retry. First
 * attempts to one endpoint go one after another, in the order of the changes. Listens to the mock only while
 * it has endpoints.
 *
 * @example
 * const webhooks = createWebhookDispatcher(api, { endpoints: [{ url: 'http://127.0.0.1:9000/hook' }] });
 * webhooks.list()[0].secret; // "whsec_…", generated
 */
export function createWebhookDispatcher(api: MockApi, options: WebhookDispatcherOptions = {}): WebhookDispatcher {
  const { schedule = defaultSchedule, random = Math.random, now = Date.now, versioning = API_VERSIONING } = options;
  const closing = new AbortController();
  const send = ({ endpoint, delivery, headers, registered }: Tracked) =>
    sendWebhook(endpoint.url, registered?.secrets ?? endpoint.secret, delivery.event, {
      now,
      signal: closing.signal,
      headers,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    });
  const initial = (options.endpoints ?? []).map((seed, index) => endpointOf(seed, `seed.webhooks[${index}]`));
  let endpoints: WebhookEndpoint[] = [];
  let tracked: Tracked[] = [];
  /** Per endpoint: the end of its latest first attempt, so the next one starts after it. */
  const queues = new Map<string, Promise<void>>();
  let stopListening: (() => void) | undefined;
  let generation = 0;
  /** Reset away, closed, or its endpoint removed: an attempt under way ends without effect, no retry follows. */
  const isGone = (entry: Tracked) =>
    entry.generation !== generation || (entry.registered === undefined && !endpoints.includes(entry.endpoint));

  /** An endpoint of `seed` (`at` names it in errors): its version checked, or its seller's (else the latest). */
  function endpointOf(seed: WebhookEndpointSeed, at: string): WebhookEndpoint {
    const open = openApiVersions(() => new Date(now()), versioning.versions);
    if (seed.apiVersion !== undefined && !open.includes(seed.apiVersion)) {
      throw new EntryError(`${at}.apiVersion`, `must be one of: ${open.join(', ')}`);
    }
    const pinned = seed.sellerId === undefined ? undefined : api.findSeller(seed.sellerId)?.apiVersion;
    return {
      id: globalThis.crypto.randomUUID(),
      url: seed.url,
      secret: seed.secret ?? generateWebhookSecret(),
      events: seed.events ?? [...CUSTOMER_EVENT_TYPES],
      sellerId: seed.sellerId ?? null,
      apiVersion: seed.apiVersion ?? pinned ?? versioning.latest,
      failing: false,
    };
  }

  function setEndpoints(next: WebhookEndpoint[]): void {
    endpoints = next;
    if (endpoints.length > 0) stopListening ??= api.onEvent(dispatch);
    else if (stopListening) {
      stopListening();
      stopListening = undefined;
    }
  }

  function dispatch(event: CustomerEvent): void {
    for (const endpoint of endpoints) {
      if (!endpoint.events.includes(event.type)) continue;
      if (endpoint.sellerId !== null && endpoint.sellerId !== event.data.customer.seller_id) continue;
      track(endpoint, event);
    }
  }

  /**
   * A delivery the API's endpoints made due (a change, or a replay): sent at once, as the server's worker would
   * within seconds, signed with the endpoint's current secret and, during a rotation's overlap, the previous one.
   */
  function dispatchDue({ sellerId, endpoint, event }: DueDelivery): void {
    const overlap = endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > new Date(now()).toISOString();
    const secrets = overlap && endpoint.previousSecret ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
    const target: WebhookEndpoint = {
      id: endpoint.id,
      url: endpoint.url,
      secret: endpoint.secret,
      events: [...endpoint.events],
      sellerId,
      apiVersion: endpoint.apiVersion,
      failing: endpoint.failingSince !== null,
    };
    track(target, event, { sellerId, secrets });
  }

  function track(endpoint: WebhookEndpoint, event: CustomerEvent, registered?: Tracked['registered']): void {
    // In the endpoint's version, through core's chain (the latest: the event as it is).
    const rendered = eventInVersion(event, endpoint.apiVersion, { versioning, now: () => new Date(now()) });
    const entry: Tracked = {
      endpoint,
      headers: rendered.headers,
      generation,
      ...(registered && { registered }),
      delivery: {
        id: globalThis.crypto.randomUUID(),
        endpointId: endpoint.id,
        url: endpoint.url,
        event: rendered.body as CustomerEvent,
        state: 'pending',
        attempts: [],
        nextAttemptAt: null,
      },
    };
    tracked.push(entry);
    // Trimmed in batches so that dispatching stays O(1) per delivery; trimmed ones still finish their retries.
    if (tracked.length > 2 * KEPT_DELIVERIES) tracked = tracked.slice(-KEPT_DELIVERIES);
    const first = (queues.get(endpoint.id) ?? Promise.resolve()).then(() => attempt(entry));
    queues.set(endpoint.id, first);
  }

  function attempt(entry: Tracked): Promise<void> {
    if (isGone(entry)) return Promise.resolve();
    const run = (async () => {
      const at = new Date(now()).toISOString();
      const outcome = await send(entry);
      entry.running = undefined;
      if (isGone(entry)) return;
      const { delivery, endpoint } = entry;
      delivery.attempts.push({ at, ...outcome });
      const report = (state: 'delivered' | 'retrying' | 'failed') => {
        if (entry.registered) api.webhookStore.setDeliveryState(entry.registered.sellerId, delivery.event.id, endpoint.id, state, at);
      };
      if (outcome.status !== null && isAcknowledged(outcome.status)) {
        Object.assign(delivery, { state: 'delivered', nextAttemptAt: null });
        endpoint.failing = false;
        report('delivered');
        return;
      }
      const delay = nextRetryDelay(delivery.attempts.length, random);
      if (delay === undefined) {
        Object.assign(delivery, { state: 'failed', nextAttemptAt: null });
        endpoint.failing = true;
        report('failed');
        return;
      }
      report('retrying');
      Object.assign(delivery, { state: 'retrying', nextAttemptAt: new Date(now() + delay).toISOString() });
      entry.cancelRetry = schedule(delay, () => {
        entry.cancelRetry = undefined;
        return attempt(entry); // a clock advanced past the retry waits for its outcome
      });
    })();
    entry.running = run;
    return run;
  }

  /** Cancels the retries of entries that are gone (those trimmed from the list end at their next attempt). */
  function cancelRetries(entries: Tracked[]): void {
    for (const entry of entries) entry.cancelRetry?.();
  }

  function deliveries(): Delivery[] {
    return tracked.slice(-KEPT_DELIVERIES).map((entry) => structuredClone(entry.delivery));
  }

  setEndpoints(initial.map((endpoint) => ({ ...endpoint })));
  const stopDue = api.webhookStore.onDue(dispatchDue);

  return {
    add(seed) {
      const checked = webhookEntryAt(seed, 'endpoint');
      if (checked.sellerId !== undefined && !api.findSeller(checked.sellerId)) {
        throw new EntryError('endpoint.sellerId', 'is not the id of a seller the mock knows');
      }
      const endpoint = endpointOf(checked, 'endpoint');
      setEndpoints([...endpoints, endpoint]);
      return { ...endpoint, events: [...endpoint.events] };
    },
    list: () => endpoints.map((endpoint) => ({ ...endpoint, events: [...endpoint.events] })),
    remove(id) {
      if (!endpoints.some((endpoint) => endpoint.id === id)) return false;
      setEndpoints(endpoints.filter((endpoint) => endpoint.id !== id));
      cancelRetries(tracked.filter((entry) => entry.endpoint.id === id));
      tracked = tracked.filter((entry) => entry.endpoint.id !== id);
      queues.delete(id);
      return true;
    },
    deliveries,
    async retryNow() {
      const attempts = tracked.map((entry) => {
        if (entry.running) return entry.running;
        if (!entry.cancelRetry) return undefined;
        entry.cancelRetry();
        entry.cancelRetry = undefined;
        return attempt(entry);
      });
      // First attempts still queued behind another one to their endpoint end with their queue.
      await Promise.all([...attempts, ...queues.values()]);
      return deliveries();
    },
    async settle() {
      await Promise.all([...tracked.map((entry) => entry.running), ...queues.values()]);
    },
    reset() {
      generation++;
      cancelRetries(tracked);
      tracked = [];
      queues.clear();
      setEndpoints(initial.map((endpoint) => ({ ...endpoint })));
    },
    close() {
      stopDue();
      generation++;
      cancelRetries(tracked);
      closing.abort();
      setEndpoints([]);
    },
  };
}
