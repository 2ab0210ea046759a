import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { API_VERSIONING, customerEvent, eventInVersion, WEBHOOK_TIMEOUT_MS, webhookHeaders, type ApiVersioning } from '@customers-api/core';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/connect.js';
import { DatabaseUnavailableError } from '../db/database-unavailable.js';
import { changeFromRow } from './changes.js';
import { pruneFinishedChanges } from './prune-outbox.js';
import {
  claimDeliveries,
  recordAttempt,
  recordAndClaim,
  renewLeases,
  type ClaimOptions,
  type AttemptOutcome,
  type ClaimedDelivery,
  type DeliveredAttempt,
} from './delivery-queue.js';
import { DELIVERY_SLOTS_PER_PROCESS, ENDPOINT_DELIVERY_SLOTS, SELLER_DELIVERY_SLOTS } from './delivery-fairness.js';
import type { SecretBox } from './secret-box.js';
import { sendWebhook } from './send-webhook.js';
import { signWithNode } from './sign-with-node.js';
import { WebhookAgents } from './webhook-agents.js';
import { attemptInstant } from './test-clock-schedule.js';

/** Milliseconds since the epoch; tests pass a clock they move by hand. */
export interface WorkerClock {
  now(): number;
}

export interface DeliveryWorkerOptions {
  database: DatabaseHandle;
  /** Opens the endpoints' sealed secrets. */
  secrets: SecretBox;
  logger?: FastifyBaseLogger | undefined;
  clock?: WorkerClock | undefined;
  /** Jitter of the retry delays (core's nextRetryDelay). */
  random?: (() => number) | undefined;
  /** Deliver to loopback and private addresses too (`--allow-private-webhooks`). */
  allowPrivate?: boolean | undefined;
  /** How often to look for due deliveries written by other processes, and retries. 1 s by default. */
  pollIntervalMs?: number | undefined;
  /** How long a claim lasts without renewal: a killed worker's deliveries wait this long. 5 s by default. */
  leaseMs?: number | undefined;
  /** Core's WEBHOOK_TIMEOUT_MS by default. */
  timeoutMs?: number | undefined;
  /** Attempts in flight at once per process. DELIVERY_SLOTS_PER_PROCESS (delivery-fairness.ts) by default. */
  concurrency?: number | undefined;
  /** Attempts in flight per seller across every process. SELLER_DELIVERY_SLOTS by default. */
  sellerSlots?: number | undefined;
  /** Attempts in flight per endpoint across every process, halved by timeouts. ENDPOINT_DELIVERY_SLOTS by default. */
  endpointSlots?: number | undefined;
  /** How often finished events past core's retention are deleted (prune-outbox.ts). 1 hour by default. */
  pruneIntervalMs?: number | undefined;
  /** The longest an acknowledged attempt waits for the others in flight before it is recorded. RECORD_GATHER_MS by default. */
  recordGatherMs?: number | undefined;
  /** Sees each attempt start and end (metrics, traces: observability/); nothing when omitted. */
  observer?: DeliveryObserver | undefined;
  /** The versions events are rendered in (buildApp passes its own; tests a fixture version). openapi.yaml's by default. */
  versioning?: ApiVersioning | undefined;
}

/** How an attempt ended for an observer: recorded as `result`, or cut short by a stop, or not recorded (an error). */
export type ObservedAttemptEnd = 'delivered' | 'retrying' | 'failed' | 'lost' | 'aborted' | 'error';

/** Called as an attempt starts; the function it returns once the attempt has ended. */
export type DeliveryObserver = (delivery: ClaimedDelivery) => (end: ObservedAttemptEnd, outcome: AttemptOutcome) => void;

type ResolvedOptions = { [K in Exclude<keyof DeliveryWorkerOptions, 'logger' | 'observer'>]-?: NonNullable<DeliveryWorkerOptions[K]> } & {
  logger?: FastifyBaseLogger | undefined;
  observer?: DeliveryObserver | undefined;
};

/** The shortest time between two looks for due deliveries (nudges in between are merged into the next look). */
const NUDGE_GAP_MS = 20;

/** The longest pause between two looks while the database does not answer (doubling from the poll interval). */
const MAX_DATABASE_BACKOFF_MS = 5_000;
/** Tries to record an attempt's outcome while the database does not answer, before its lease is left to lapse. */
const RECORD_TRIES = 5;
/** The most acknowledged attempts recorded in one transaction (a bounded statement; the rest go in the next). */
const MAX_RECORD_BATCH = 100;
/** Opened secrets remembered at most (then forgotten all at once). */
const MAX_OPENED_SECRETS = 1024;
/** The longest an acknowledged attempt waits for others to end before its batch is written (#gather). */
const RECORD_GATHER_MS = 5;

/** What {@link DeliveryWorker.drain} did, for tests. */
export interface DrainReport {
  attempts: number;
}

/**
 * Sends the outbox's deliveries from inside a server process: claims due rows with a lease (so any number of
 * processes share the work, none sends a row another holds; claims are fair: per-seller and per-endpoint slots
 * across processes, round robin across sellers, see delivery-queue.ts), signs each with the endpoint's secrets (both during
 * the 24 hours after a rotation), posts it, and records the outcome with core's retry policy. It runs when nudged
 * (after this process's writes) and every poll interval (other processes' writes, retries falling due).
 *
 * @example
 * const worker = new DeliveryWorker({ database, secrets: box });
 * worker.start();
 * // after each write: worker.nudge();
 * await worker.stop();
 */
export class DeliveryWorker {
  readonly #options: ResolvedOptions;
  /** This worker's lease owner id: only it records the outcome of what it claimed. */
  readonly #owner = randomUUID();
  readonly #inFlight = new Map<number, Promise<void>>();
  readonly #abort = new AbortController();
  /** Kept-alive sockets to receivers, per origin and checked address. */
  readonly #agents = new WebhookAgents();
  #pumping: Promise<void> | undefined;
  #again = false;
  #stopped = false;
  #attempts = 0;
  #poll: NodeJS.Timeout | undefined;
  #delayed: NodeJS.Timeout | undefined;
  #lastPump = -Infinity;
  #renew: NodeJS.Timeout | undefined;
  #pruneTimer: NodeJS.Timeout | undefined;
  #pruning: Promise<void> | undefined;
  /** Deliveries whose attempt the stop aborted: their leases are released once every attempt has ended. */
  readonly #cutShort: number[] = [];
  /** Acknowledged attempts waiting for the next batch write (recordDelivered), and the write under way. */
  #delivered: { attempt: DeliveredAttempt; settle: (result: 'delivered' | 'lost' | Error) => void }[] = [];
  #recording: Promise<void> | undefined;
  /** Opened endpoint secrets by endpoint and sealed text (#open). */
  readonly #opened = new Map<string, string>();
  /** The timer that writes a batch while other attempts are still in flight (#gather). */
  #gathering: NodeJS.Timeout | undefined;
  /** Whether the last claim found deliveries: a slot freed then is filled at once (#slotFreed). */
  #busy = false;
  /** Slots a claim under way may fill (they are not in #inFlight yet): no two claims take the same free slot. */
  #reserved = 0;
  /** A look scheduled for the slots freed in this turn of the event loop. */
  #refill: NodeJS.Immediate | undefined;
  /** While the database does not answer: no look before `until` (performance.now()), and the next pause. */
  #backoff: { until: number; delayMs: number } | undefined;

  constructor(options: DeliveryWorkerOptions) {
    this.#options = {
      clock: { now: () => Date.now() },
      random: Math.random,
      allowPrivate: false,
      pollIntervalMs: 1000,
      leaseMs: 5000,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      concurrency: DELIVERY_SLOTS_PER_PROCESS,
      sellerSlots: SELLER_DELIVERY_SLOTS,
      endpointSlots: ENDPOINT_DELIVERY_SLOTS,
      pruneIntervalMs: 60 * 60 * 1000,
      recordGatherMs: RECORD_GATHER_MS,
      versioning: API_VERSIONING,
      ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
    } as ResolvedOptions;
    // Each attempt in flight listens to the stop signal (its request's abort): more than Node's default of 10
    // printed a non-JSON MaxListenersExceededWarning on stderr. One per slot, and room for the in-flight renewals.
    setMaxListeners(this.#options.concurrency * 2, this.#abort.signal);
  }

  /** Starts polling (and the lease renewal of attempts in flight). */
  start(): void {
    if (this.#poll || this.#stopped) return;
    this.#poll = setInterval(() => this.nudge(), this.#options.pollIntervalMs);
    this.#poll.unref();
    this.#renew = setInterval(() => void this.#renewLeases(), Math.max(50, Math.floor(this.#options.leaseMs / 3)));
    this.#renew.unref();
    this.#pruneTimer = setInterval(() => void this.prune(), this.#options.pruneIntervalMs);
    this.#pruneTimer.unref();
    void this.prune();
    this.nudge();
  }

  /** Deletes finished events past core's retention (one run at a time; started with the worker and then hourly). */
  prune(): Promise<void> {
    const { database, clock, logger } = this.#options;
    this.#pruning ??= pruneFinishedChanges(database, { now: new Date(clock.now()) })
      .then((pruned) => {
        if (pruned > 0) logger?.info({ pruned }, 'webhook outbox: deleted finished events past their retention');
      })
      .catch((error: unknown) => logger?.warn({ err: error }, 'webhook outbox: could not delete old events'))
      .finally(() => {
        this.#pruning = undefined;
      });
    return this.#pruning;
  }

  /**
   * Looks for due deliveries soon: coalesced (at most one look runs, one more is queued behind it) and at most
   * one look per {@link NUDGE_GAP_MS}, so a burst of writes costs the database a few cheap reads, not one per write.
   */
  nudge(): void {
    if (this.#stopped) return;
    // The database does not answer: the poll after the back-off looks again (nudges would only add failed claims).
    if (this.#backoff && performance.now() < this.#backoff.until) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    const wait = this.#lastPump + NUDGE_GAP_MS - performance.now();
    if (wait > 0) {
      this.#delayed ??= setTimeout(() => {
        this.#delayed = undefined;
        this.nudge();
      }, wait);
      return;
    }
    this.#lastPump = performance.now();
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = undefined;
      if (this.#again) {
        this.#again = false;
        this.nudge();
      }
    });
  }

  /**
   * Runs until nothing is due and nothing is in flight (tests: after moving a fake clock on).
   *
   * @example
   * clock.advance(5_000); await worker.drain();
   */
  async drain(): Promise<DrainReport> {
    const before = this.#attempts;
    for (;;) {
      const attemptsBefore = this.#attempts;
      this.#lastPump = -Infinity;
      this.nudge();
      while (this.#pumping) await this.#pumping;
      if (this.#inFlight.size === 0 && this.#attempts === attemptsBefore) break;
      await Promise.all(this.#inFlight.values());
    }
    return { attempts: this.#attempts - before };
  }

  /** Stops claiming; attempts in flight get a moment to finish, then are aborted (their lease lapses, a later claim retries them). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearInterval(this.#renew);
    clearInterval(this.#pruneTimer);
    clearTimeout(this.#delayed);
    clearImmediate(this.#refill);
    await this.#pumping;
    await this.#pruning;
    const grace = setTimeout(() => this.#abort.abort(), Math.min(this.#options.timeoutMs, 2000));
    await Promise.all(this.#inFlight.values());
    clearTimeout(grace);
    this.#agents.destroy();
    this.#opened.clear();
    await this.#releaseLeases();
  }

  /**
   * Gives back the deliveries whose attempts the stop cut short, so another process retries them at once instead of
   * after the lease (graphile's returnJobs). The owner check keeps a row another worker has since taken.
   */
  async #releaseLeases(): Promise<void> {
    const ids = this.#cutShort.splice(0);
    if (ids.length === 0) return;
    const { database, clock, logger } = this.#options;
    try {
      await renewLeases(database, { ids, owner: this.#owner, leaseUntil: new Date(clock.now()) });
      logger?.info({ released: ids.length }, 'webhook delivery: released the leases of attempts cut short by the stop');
    } catch (error) {
      logger?.warn({ err: error, leases: ids.length }, 'webhook delivery: could not release leases; they lapse on their own');
    }
  }

  async #pump(): Promise<void> {
    const { database } = this.#options;
    try {
      while (!this.#stopped && this.#freeSlots() > 0) {
        const options = this.#claimOptions(this.#freeSlots());
        const claimed = await this.#withReserved(options.limit, () => claimDeliveries(database, options));
        this.#databaseAnswered();
        this.#busy = claimed.length > 0;
        if (claimed.length === 0) return;
        this.#launch(claimed);
      }
    } catch (error) {
      if (error instanceof DatabaseUnavailableError) this.#databaseUnavailable(error);
      // Anything else: the next poll tries again.
      else this.#options.logger?.warn({ err: error }, 'webhook delivery: could not claim deliveries');
    }
  }

  /** Slots neither in flight nor asked for by a claim under way (the pump's, or one joined to a record). */
  #freeSlots(): number {
    return this.#options.concurrency - this.#inFlight.size - this.#reserved;
  }

  /** Holds `limit` slots for a claim under way (`fn`) until it settles, so no other claim counts them as free. */
  async #withReserved<T>(limit: number, fn: () => Promise<T>): Promise<T> {
    this.#reserved += limit;
    try {
      return await fn();
    } finally {
      this.#reserved -= limit;
    }
  }

  #claimOptions(limit: number): ClaimOptions {
    const { leaseMs, secrets, clock, sellerSlots, endpointSlots } = this.#options;
    return { now: new Date(clock.now()), leaseMs, owner: this.#owner, limit, keyId: secrets.keyId, sellerSlots, endpointSlots, busy: this.#busy };
  }

  /** Starts the claimed deliveries' attempts; each frees its slot when it has been recorded. */
  #launch(claimed: readonly ClaimedDelivery[]): void {
    for (const delivery of claimed) {
      const attempt = this.#attempt(delivery).finally(() => {
        this.#inFlight.delete(delivery.id);
        this.#slotFreed();
      });
      this.#inFlight.set(delivery.id, attempt);
    }
  }

  /**
   * An attempt has ended (a first attempt done may also let the customer's next change go): look again. While the
   * queue has work (the last claim found some), at once rather than after NUDGE_GAP_MS, but once for every slot
   * freed in this turn of the event loop (a batch of recorded attempts ends together): one claim fills them all.
   */
  #slotFreed(): void {
    if (!this.#busy || this.#stopped) return this.nudge();
    this.#refill ??= setImmediate(() => {
      this.#refill = undefined;
      this.#lastPump = -Infinity;
      this.nudge();
    });
  }

  /** Backs off (doubling, up to MAX_DATABASE_BACKOFF_MS); one log line when the outage starts, not one per poll. */
  #databaseUnavailable(error: DatabaseUnavailableError): void {
    const delayMs = Math.min(MAX_DATABASE_BACKOFF_MS, this.#backoff ? this.#backoff.delayMs * 2 : this.#options.pollIntervalMs);
    if (!this.#backoff) this.#options.logger?.warn({ kind: error.kind }, 'webhook delivery: the database does not answer; backing off');
    this.#backoff = { until: performance.now() + delayMs, delayMs };
  }

  #databaseAnswered(): void {
    if (!this.#backoff) return;
    this.#backoff = undefined;
    this.#options.logger?.info('webhook delivery: the database answers again');
  }

  /**
   * recordAttempt, tried again while the database does not answer: the attempt stays in flight meanwhile, so its
   * lease keeps being renewed once the database is back; if the lease lapsed and another worker took the row over,
   * recordAttempt's owner check says 'lost' and the other worker's outcome stands.
   */
  async #record(...args: Parameters<typeof recordAttempt>): ReturnType<typeof recordAttempt> {
    for (let tries = 1; ; tries++) {
      try {
        return await recordAttempt(...args);
      } catch (error) {
        if (!(error instanceof DatabaseUnavailableError) || tries >= RECORD_TRIES || this.#abort.signal.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_DATABASE_BACKOFF_MS, 250 * 2 ** tries)));
      }
    }
  }

  /**
   * Records an acknowledged attempt with the others that end meanwhile: one transaction for all of them
   * (recordDelivered), so the database's cost per delivery falls as the load grows (group commit). Attempts that
   * failed are recorded one by one (#record): they may change their endpoint's health and schedule.
   */
  #recordDelivered(attempt: DeliveredAttempt): Promise<'delivered' | 'lost'> {
    return new Promise((resolve, reject) => {
      this.#delivered.push({ attempt, settle: (result) => (result instanceof Error ? reject(result) : resolve(result)) });
      this.#gather(false);
    });
  }

  /**
   * Starts the next batch write when it is worth a commit: every attempt in flight has ended (nothing left to wait
   * for), or the first waiting attempt has waited RECORD_GATHER_MS (`force`, a slow receiver's attempts never hold
   * a fast one's record up for longer). One write at a time; the next is decided when it ends. Bigger batches:
   * fewer statements per attempt, and each PostgreSQL round trip costs the process about 100 us of CPU (issue 36:
   * writing at half the slots made batches of 8 at 16 in flight, 806 attempts/s; waiting for all, 16 and 1,092).
   */
  #gather(force: boolean): void {
    if (this.#recording || this.#delivered.length === 0) return;
    const running = this.#inFlight.size - this.#delivered.length;
    if (!force && running > 0 && !this.#stopped) {
      this.#gathering ??= setTimeout(() => {
        this.#gathering = undefined;
        this.#gather(true);
      }, this.#options.recordGatherMs);
      return;
    }
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    this.#recording = this.#writeDelivered().finally(() => {
      this.#recording = undefined;
      this.#gather(false);
    });
  }

  /**
   * Writes a batch of the waiting acknowledged attempts (#gather starts the next). While the queue has work (the
   * last claim found some), the same transaction claims deliveries for the slots the batch frees (recordAndClaim):
   * one commit per batch where a record and a claim took two.
   */
  async #writeDelivered(): Promise<void> {
    // Attempts that end in this turn of the event loop join the first batch.
    await new Promise((resolve) => setImmediate(resolve));
    const { database, clock } = this.#options;
    const batch = this.#delivered.splice(0, MAX_RECORD_BATCH);
    const attempts = batch.map((entry) => entry.attempt);
    let joinClaim = this.#busy;
    for (let tries = 1; ; tries++) {
      // The batch's attempts are still in flight: their slots are free once they are recorded.
      const limit = joinClaim && !this.#stopped && !this.#backoff ? Math.min(this.#freeSlots() + batch.length, this.#options.concurrency) : 0;
      const claim = limit > 0 ? this.#claimOptions(limit) : undefined;
      try {
        const { results, claimed } = await this.#withReserved(limit, () => recordAndClaim(database, attempts, { now: new Date(clock.now()), owner: this.#owner }, claim));
        if (claim) {
          this.#busy = claimed.length > 0;
          this.#launch(claimed);
        }
        for (const entry of batch) entry.settle(results.get(entry.attempt.delivery.id) ?? 'lost');
        break;
      } catch (error) {
        const unavailable = error instanceof DatabaseUnavailableError;
        if (claim && !unavailable) {
          // The claim failed (the record with it): record alone, the pump claims on its own.
          this.#options.logger?.warn({ err: error }, 'webhook delivery: could not claim deliveries');
          joinClaim = false;
          continue;
        }
        const retry = unavailable && tries < RECORD_TRIES && !this.#abort.signal.aborted;
        if (retry) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_DATABASE_BACKOFF_MS, 250 * 2 ** tries)));
          continue;
        }
        for (const entry of batch) entry.settle(error instanceof Error ? error : new Error(String(error)));
        break;
      }
    }
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const { clock, database, random, logger } = this.#options;
    const observed = this.#options.observer?.(delivery);
    this.#attempts++;
    const eventId = delivery.change.event_id;
    let outcome: AttemptOutcome;
    const startedAt = new Date(clock.now());
    const started = performance.now();
    let signature = '';
    try {
      const event = this.#event(delivery);
      const body = JSON.stringify(event.body);
      const keys = [this.#open(delivery.secret, delivery.endpointId)];
      if (delivery.previousSecret && delivery.previousSecretExpiresAt && Date.parse(delivery.previousSecretExpiresAt) > clock.now()) {
        keys.push(this.#open(delivery.previousSecret, delivery.endpointId));
      }
      // Signed at the attempt's start, so the kept attempt time gives back `webhook-timestamp` (delivery-detail.ts).
      // node:crypto's HMAC, byte for byte core's Web Crypto signature without a key import per attempt.
      const headers = await webhookHeaders(keys, { id: eventId, timestamp: Math.floor(startedAt.getTime() / 1000), body }, signWithNode);
      signature = headers['webhook-signature'];
      outcome = await sendWebhook({
        url: delivery.url,
        body,
        headers: { ...headers, ...event.headers },
        timeoutMs: this.#options.timeoutMs,
        allowPrivate: this.#options.allowPrivate,
        signal: this.#abort.signal,
        agents: this.#agents,
      });
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    }
    // Stopping: leave the row to a later claim rather than count an attempt we cut short.
    if (this.#abort.signal.aborted) {
      this.#cutShort.push(delivery.id);
      return observed?.('aborted', outcome);
    }
    try {
      const sent = { startedAt, durationMs: performance.now() - started, signature };
      const result =
        'acknowledged' in outcome && outcome.acknowledged
          ? await this.#recordDelivered({ delivery, outcome, sent })
          : await this.#record(database, delivery, outcome, { now: attemptInstant(delivery, new Date(clock.now())), owner: this.#owner, random, sent });
      observed?.(result, outcome);
      const context = { endpointId: delivery.endpointId, eventId, attempt: delivery.attempts + 1, result };
      if (result === 'delivered') logger?.debug({ ...context, status: (outcome as { status: number }).status }, 'webhook delivered');
      else logger?.warn({ ...context, ...outcome, body: undefined }, 'webhook delivery failed');
    } catch (error) {
      observed?.('error', outcome);
      logger?.warn({ err: error, endpointId: delivery.endpointId, eventId }, 'webhook delivery: could not record the attempt');
    }
  }

  /**
   * The delivery's event in the endpoint's pinned version (core's chain), which the body's api_version and
   * Customers-Version name. A change row it cannot read (damaged, or written by hand) throws a message that the
   * attempt records as its failure: the process never dies of a row it reads.
   */
  #event(delivery: ClaimedDelivery): ReturnType<typeof eventInVersion> {
    try {
      return eventInVersion(customerEvent(changeFromRow(delivery.change)), delivery.apiVersion, {
        versioning: this.#options.versioning,
        now: () => new Date(this.#options.clock.now()),
      });
    } catch (error) {
      throw new Error(`could not build the event from its recorded change: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * secrets.open, remembered per sealed text and endpoint (an AES-GCM open per attempt was 3% of the worker's time,
   * profiled): a rotated secret is another sealed text, so nothing stale is ever used. Bounded; gone with the worker.
   */
  #open(sealed: string, endpointId: string): string {
    const key = `${endpointId} ${sealed}`;
    let opened = this.#opened.get(key);
    if (opened === undefined) {
      opened = this.#options.secrets.open(sealed, endpointId);
      if (this.#opened.size >= MAX_OPENED_SECRETS) this.#opened.clear();
      this.#opened.set(key, opened);
    }
    return opened;
  }

  async #renewLeases(): Promise<void> {
    if (this.#inFlight.size === 0) return;
    const { database, clock, leaseMs } = this.#options;
    try {
      await renewLeases(database, { ids: [...this.#inFlight.keys()], owner: this.#owner, leaseUntil: new Date(clock.now() + leaseMs) });
    } catch (error) {
      // While the database does not answer, the claim's back-off has said so once already.
      if (!(error instanceof DatabaseUnavailableError)) this.#options.logger?.warn({ err: error }, 'webhook delivery: could not renew leases');
    }
  }
}
