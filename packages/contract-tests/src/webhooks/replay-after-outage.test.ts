import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from '@customers-api/core';
import * as sdk from '@customers-api/sdk';
import { createSecretBox, type DialectName } from '@customers-api/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServerTarget } from '../targets/mock-server-target.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

// Issue 37's replay: a receiver is down while customers change, long enough for every real retry to be given up
// (core's schedule: 5 s, 1 min, 5 min, 30 min, … about three days in all); then it is up again, and one
// `POST /api/webhook_endpoints/{id}/replay` (through the SDK) delivers exactly the missed events, each once, with
// each customer's events in the order of its changes. Time is never waited for: the HTTP mock's clock is moved
// through `POST /__mock/clock`, the server's delivery worker runs on a clock the test moves (its `clock` option)
// and is drained after each move. Only counts and orders are asserted, never durations.
//
// Thirty minutes into the outage the deliveries are still being retried (four failed attempts each, the fifth due
// at 36 min 5 s): a replay then would queue nothing (a waiting delivery is not queued twice), so the outage goes on,
// the receiver still failing, until the last retry of each is given up.

const MINUTE = 60_000;
/** Attempts made within the first 30 minutes: at 0, 5 s, 1 min 5 s and 6 min 5 s (jitter adds at most 10 %). */
const ATTEMPTS_IN_30_MINUTES = 4;
const CUSTOMERS = 4;
const UPDATES_EACH = 3;

interface Hit {
  eventId: string;
  customerId: string;
  sequence: number;
  status: number;
}

/** A real receiver on 127.0.0.1: answers 500 while down, 204 while up, and records every request in order. */
async function startReceiver(): Promise<{ url: string; hits: Hit[]; setUp(up: boolean): void; close(): Promise<void> }> {
  const hits: Hit[] = [];
  let up = true;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as sdk.CustomerEvent;
      const status = up ? 204 : 500;
      hits.push({ eventId: event.id, customerId: event.data.customer.id, sequence: event.data.sequence, status });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    hits,
    setUp: (value) => {
      up = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** How a host's retries are moved on: `advance` moves its delivery clock and returns once what fell due ran. */
interface Host {
  target: Target;
  /** Runs what is due now (first attempts included) and waits for it to end. */
  settle(): Promise<void>;
  /** Moves the delivery clock by 30 minutes, then to past the last retry; each returns once the due attempts ended. */
  advanceThirtyMinutes(): Promise<void>;
  advancePastLastRetry(): Promise<void>;
  close(): Promise<void>;
}

async function serverHost(dialect: DialectName): Promise<Host> {
  let offsetMs = 0;
  const target: ServerTarget = await startServerTarget(dialect, undefined, {
    webhooks: {
      secrets: createSecretBox(randomBytes(32)),
      allowPrivate: true,
      // The worker's own clock: retries fall due when the test moves it; no jitter, so the delays are core's.
      clock: { now: () => Date.now() + offsetMs },
      random: () => 0,
      pollIntervalMs: 100,
    },
  });
  const worker = target.app.webhookWorker!;
  const settle = async () => void (await worker.drain());
  // Retry by retry, as the schedule says: each move makes one more attempt of every delivery due.
  const through = async (delays: readonly number[]) => {
    for (const delay of delays) {
      offsetMs += delay;
      await settle();
    }
  };
  return {
    target,
    settle,
    advanceThirtyMinutes: async () => {
      await through(WEBHOOK_RETRY_DELAYS_MS.slice(0, ATTEMPTS_IN_30_MINUTES - 1));
      const elapsed = WEBHOOK_RETRY_DELAYS_MS.slice(0, ATTEMPTS_IN_30_MINUTES - 1).reduce((a, b) => a + b, 0);
      offsetMs += 30 * MINUTE - elapsed; // 30 minutes in all; the next retry is due later
      await settle();
    },
    advancePastLastRetry: async () => {
      // From 30 minutes in: the fifth attempt is due at the first four delays' sum.
      const firstFour = WEBHOOK_RETRY_DELAYS_MS.slice(0, ATTEMPTS_IN_30_MINUTES).reduce((a, b) => a + b, 0);
      offsetMs += firstFour - 30 * MINUTE;
      await settle();
      await through(WEBHOOK_RETRY_DELAYS_MS.slice(ATTEMPTS_IN_30_MINUTES));
    },
    close: () => target.close(),
  };
}

async function mockHost(): Promise<Host> {
  const target = await startMockServerTarget();
  const control = async (path: string, body: unknown) => {
    const response = await fetch(`${target.baseUrl}/__mock${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  };
  // POST /__mock/deliveries/retry waits for the attempts under way (it would retry a waiting one: used only when none waits).
  const advance = (ms: number) => control('/clock', { advance_ms: ms });
  const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
  return {
    target,
    // Moving the clock by nothing waits for the attempts under way and runs what is due.
    settle: () => advance(0),
    advanceThirtyMinutes: () => advance(30 * MINUTE),
    // Every retry due on the way runs in order within the one move; 20 % over the schedule covers the jitter.
    advancePastLastRetry: () => advance(Math.ceil(total * 1.2) - 30 * MINUTE),
    close: () => target.close(),
  };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000; // real deliveries on a loaded machine; the verdict never depends on it
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each([
  ['server (SQLite)', () => serverHost('sqlite')],
  ['server (PostgreSQL)', () => serverHost('postgres')],
  ['HTTP mock', mockHost],
] as const)('a replay after a receiver outage on the %s', (_name, start) => {
  let host: Host;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    [host, receiver] = await Promise.all([start(), startReceiver()]);
  });
  afterAll(async () => {
    await host?.close();
    await receiver?.close();
  });

  it('delivers exactly the events missed once every retry was given up, each once, in each customer’s order', async () => {
    const seller = await host.target.newSeller();
    const client = new sdk.CustomersClient({ apiKey: seller.key, baseUrl: host.target.baseUrl, maxRetries: 0 });
    const endpoint = await client.webhookEndpoints.create({ url: receiver.url });

    // Before the outage: delivered, so a replay of the undelivered ones leaves it out.
    const before = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'before@example.com' });
    const [beforeEvent] = (await client.events.list({ customer_id: before.id })).data;
    await host.settle();
    await until(() => receiver.hits.some((hit) => hit.eventId === beforeEvent!.id && hit.status === 204), 'the delivery before the outage');

    receiver.setUp(false);
    // Changes interleaved across customers, so that per-customer order is not simply arrival order.
    const customers: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      customers.push((await client.customers.create({ first_name: 'Missed', last_name: String(i), email: `missed${i}@example.com` })).id);
    }
    for (let round = 1; round <= UPDATES_EACH; round++) {
      for (const id of customers) await client.customers.update(id, { last_name: `Round ${round}` });
    }
    await client.customers.delete(customers[0]!);
    const missed = (await client.events.list({ limit: 100 }).toArray({ limit: 1000 })).filter((event) => event.id !== beforeEvent!.id);
    expect(missed).toHaveLength(CUSTOMERS * (1 + UPDATES_EACH) + 1);
    const missedIds = new Set(missed.map((event) => event.id));
    const failedAttempts = (id: string) => receiver.hits.filter((hit) => hit.eventId === id && hit.status === 500).length;

    await host.settle();
    await host.advanceThirtyMinutes();
    // Thirty minutes in: every missed event was tried and is still being retried, none acknowledged.
    for (const id of missedIds) expect(failedAttempts(id)).toBe(ATTEMPTS_IN_30_MINUTES);
    await host.advancePastLastRetry();
    // Every retry given up: each missed event was tried exactly WEBHOOK_MAX_ATTEMPTS times, and nothing else was.
    for (const id of missedIds) expect(failedAttempts(id)).toBe(WEBHOOK_MAX_ATTEMPTS);
    expect(receiver.hits.filter((hit) => hit.status === 500)).toHaveLength(missedIds.size * WEBHOOK_MAX_ATTEMPTS);
    const undelivered = await client.events.list({ undelivered_to: endpoint.id, limit: 100 }).toArray({ limit: 1000 });
    expect(new Set(undelivered.map((event) => event.id))).toEqual(missedIds);

    receiver.setUp(true);
    const hitsBefore = receiver.hits.length;
    // One request, from before the outage (so the delivered event is in range too): only the missed ones go.
    const replay = await client.webhookEndpoints.replay(endpoint.id, { since: beforeEvent!.created_at, only_undelivered: true });
    expect(replay).toEqual({ queued: missedIds.size, has_more: false, next_cursor: null });
    await host.settle();
    await until(() => receiver.hits.length - hitsBefore >= missedIds.size, 'the replayed events');
    await host.settle(); // anything more that was due would have gone now

    const replayed = receiver.hits.slice(hitsBefore);
    expect(replayed.every((hit) => hit.status === 204)).toBe(true);
    expect(replayed).toHaveLength(missedIds.size);
    expect(new Set(replayed.map((hit) => hit.eventId))).toEqual(missedIds);
    // Per customer, in the order of its changes (sequence 1, 2, …; the deleted one's delete last).
    for (const id of customers) {
      const sequences = replayed.filter((hit) => hit.customerId === id).map((hit) => hit.sequence);
      const expected = missed.filter((event) => event.data.customer.id === id).map((event) => event.data.sequence).sort((a, b) => a - b);
      expect(sequences).toEqual(expected);
    }
    expect(await client.events.list({ undelivered_to: endpoint.id }).toArray({ limit: 1000 })).toEqual([]);
  });
});
