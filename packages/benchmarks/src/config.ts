import { WEBHOOK_TIMEOUT_MS } from '@customers-api/core';

/** How big and how long one run is. `pnpm bench` uses {@link FULL}; the test uses {@link SMOKE}. */
export interface BenchConfig {
  /** autocannon connections for the throughput scenarios. */
  connections: number;
  /** Seconds measured per scenario and round. */
  durationSeconds: number;
  /** Seconds of load before each measurement, thrown away. */
  warmupSeconds: number;
  /** Scenarios run in rounds (ceiling first in each), figures are medians over the rounds. */
  rounds: number;
  /** Sellers sharing the main table; each has its own API key. */
  sellers: number;
  /** Customers in the main table (SQLite and PostgreSQL). */
  customers: number;
  /** Customers in the two scale tables (SQLite for GET and list; PostgreSQL for list). */
  scale: { small: number; large: number; connections: number };
  /** SDK vs fetch: calls per batch, and batches of each (interleaved). */
  sdk: { calls: number; batches: number; concurrency: number };
  /** Customers created in the stateful HTTP mock before its GET load (at most 100: its default seller's plan). */
  mockCustomers: number;
  /** MSW through the SDK in one process. */
  msw: { customers: number; concurrency: number };
  /** The server's log level while measured (its per-request log line is at info). */
  logLevel: string;
  /** Another build of the server (a bundle of its index), measured beside the current one: before/after. */
  before?: string;
  /** A directory for V8 CPU profiles of the Node targets (`--cpu-prof`), one file per process; none when omitted. */
  cpuProfileDir?: string;
  /** PostgreSQL with pg_stat_statements: each database's top statements printed before it stops (BENCH_PG_STATEMENTS). */
  pgStatements?: boolean;
  /** Webhook delivery rows (issue 36): deliveries seeded per side, attempts in flight at once. */
  delivery: { deliveries: number; concurrency: number };
  /**
   * Issue 36's backlog rows (workers/backlog.ts): seller A's waiting deliveries at a black hole beside seller B.
   * `seeded`: rows written with SQL per database; `api`: A's PATCHes through the API, each fanning out to
   * `endpoints`, measured `settleSeconds` after the first (the attempt timeout and then 25 s), idle for `idleSeconds`.
   */
  backlog: {
    customers: number;
    seeded: { sqlite: number; postgres: number };
    api: { patches: number; endpoints: number; settleSeconds: number; idleSeconds: number; readRounds: number };
    gets: number;
    creates: number;
    createsPerSecond: number;
  };
  /** Only these scenario ids (the ceiling always runs; 'sdk' and 'msw-get' for the in-process parts). */
  only?: string[];
}

export const FULL: BenchConfig = {
  connections: 50,
  durationSeconds: 5,
  warmupSeconds: 1.5,
  rounds: 3,
  sellers: 10,
  customers: 10_000,
  scale: { small: 1_000, large: 1_000_000, connections: 10 },
  // 60 batches: one run's concurrent figure spread by 6.8 points (sd, A/A, load 9-15) with 30, 5.1 with 60 (issue 28).
  sdk: { calls: 200, batches: 60, concurrency: 20 },
  mockCustomers: 100, // the default seller's plan limit; an in-memory Map does not slow down with size
  msw: { customers: 10_000, concurrency: 50 },
  delivery: { deliveries: 5_000, concurrency: 16 },
  backlog: {
    customers: 2_000,
    seeded: { sqlite: 100_000, postgres: 1_000_000 },
    // 5,000 PATCHes × 10 endpoints = 50,000 waiting; measured 25 s after the first attempts time out.
    api: { patches: 5_000, endpoints: 10, settleSeconds: WEBHOOK_TIMEOUT_MS / 1000 + 25, idleSeconds: 5, readRounds: 200 },
    gets: 2_000,
    // 10 s of creates at 10/s: 100 latencies, so the p99 is the second-slowest one.
    creates: 100,
    createsPerSecond: 10,
  },
  logLevel: 'warn',
};

/** Seconds long, a few connections: checks that the harness works, not how fast anything is. */
export const SMOKE: BenchConfig = {
  connections: 2,
  durationSeconds: 0.5,
  warmupSeconds: 0.2,
  rounds: 1,
  sellers: 2,
  customers: 40,
  scale: { small: 20, large: 200, connections: 2 },
  sdk: { calls: 5, batches: 2, concurrency: 2 },
  mockCustomers: 20,
  msw: { customers: 20, concurrency: 2 },
  delivery: { deliveries: 40, concurrency: 4 },
  backlog: {
    customers: 20,
    seeded: { sqlite: 500, postgres: 500 },
    api: { patches: 50, endpoints: 10, settleSeconds: 0.2, idleSeconds: 0.2, readRounds: 5 },
    gets: 20,
    creates: 5,
    createsPerSecond: 50,
  },
  logLevel: 'warn',
};
