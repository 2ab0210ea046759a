import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SMOKE } from './config.js';
import { END, resultsSection, START, writeBenchmarksFile } from './report.js';
import { runBenchmarks, type BenchReport } from './run-benchmarks.js';
import { resultTable, targetTable } from './table.js';
import { checkTargets } from './targets.js';

// A seconds-long run of the whole harness with tiny settings: every scenario kind must produce a well-formed
// row. How fast anything is, is not asserted (CI machines and neighbours vary).
describe('the benchmark harness (smoke)', () => {
  let report: BenchReport;
  beforeAll(async () => {
    report = await runBenchmarks(SMOKE);
  });

  it('measures every scenario once, in one run', () => {
    expect(report.rows.map((row) => row.id)).toEqual([
      'ceiling',
      'floor-get',
      'floor-list',
      'floor-post',
      'floor-get-redis',
      'floor-pg-get',
      'floor-pg-list',
      'floor-pg-post',
      'floor-pg-patch',
      'floor-pg-mixed',
      'sqlite-get',
      'postgres-get',
      'sqlite-list',
      'postgres-list',
      'sqlite-post',
      'postgres-post',
      'sqlite-patch',
      'postgres-patch',
      'sqlite-mixed',
      'postgres-mixed',
      'postgres-get-2proc',
      'postgres-mixed-2proc',
      'sqlite-get-info',
      'sqlite-get-metrics',
      'sqlite-get-tracing',
      'sqlite-get-request-logs-off',
      'sqlite-post-metrics',
      'sqlite-post-tracing',
      'sqlite-post-request-logs-off',
      'sqlite-get-ratelimit',
      'sqlite-get-ratelimit-redis',
      'sqlite-get-versions',
      'prism-get',
      'mock-get',
      'scale-small',
      'scale-large',
      'list-small-sqlite',
      'list-large-sqlite',
      'list-small-postgres',
      'list-large-postgres',
      'post-small-sqlite',
      'post-large-sqlite',
      'post-small-postgres',
      'post-large-postgres',
      'msw-bare',
      'msw-get',
      'sdk-sequential',
      'sdk-concurrent',
      'delivery-floor-sqlite',
      'delivery-sqlite',
      'delivery-floor-postgres',
      'delivery-postgres',
      'backlog-seeded-sqlite',
      'backlog-seeded-postgres',
      'backlog-api-sqlite',
      'backlog-api-postgres',
    ]);
  });

  it('gives each row a throughput, latencies and no failed request', () => {
    for (const row of report.rows) {
      expect(row.label, row.id).not.toBe('');
      expect(row.rps, row.id).toBeGreaterThan(0);
      // Delivery rows count attempts per second of a drain: no request latencies.
      if (row.kind === 'delivery') continue;
      expect(Number.isFinite(row.p50) && row.p50 > 0, row.id).toBe(true);
      expect(row.p99, row.id).toBeGreaterThanOrEqual(row.p50);
      expect(row.failures, row.id).toBe(0);
    }
  });

  it('relates the HTTP rows to the ceiling and measures the answering process', () => {
    for (const row of report.rows.filter((r) => ['ceiling', 'floor', 'server', 'prism', 'mock', 'scale'].includes(r.kind))) {
      expect(row.peakRss, row.id).toBeGreaterThan(1024 * 1024);
      expect(Number.isFinite(row.cpuUs), row.id).toBe(true);
      if (row.kind !== 'scale') expect(row.ratio, row.id).toBeGreaterThan(0);
    }
    expect(report.rows.find((r) => r.id === 'ceiling')!.ratio).toBe(1);
  });

  it('measures PostgreSQL beside its floors: its own CPU per request, the ratio to the floor, two processes', () => {
    const onPostgres = report.rows.filter((r) => /^(floor-pg|postgres)-/.test(r.id));
    expect(onPostgres).toHaveLength(5 + 5 + 2);
    for (const row of onPostgres) expect(row.dbCpuUs, row.id).toBeGreaterThanOrEqual(0);
    for (const load of ['get', 'list', 'post', 'patch', 'mixed'] as const) {
      expect(report.postgresOverFloor[load], load).toBeGreaterThan(0);
      expect(report.rows.find((r) => r.id === `postgres-${load}`)!.note).toMatch(/^\d+% of its floor$/);
    }
    for (const id of ['postgres-get-2proc', 'postgres-mixed-2proc']) {
      expect(report.rows.find((r) => r.id === id)!.note, id).toMatch(/^\d+\.\d\d× one process/);
    }
  });

  it('relates the rate-limited GETs to the same GET without the limiter, and the Redis one to its floor', () => {
    expect(report.rows.find((r) => r.id === 'sqlite-get-ratelimit')!.note).toMatch(/^\d+\.\d% of server SQLite GET \(limiter off\)$/);
    expect(report.rows.find((r) => r.id === 'sqlite-get-ratelimit-redis')!.note).toMatch(
      /^\d+\.\d% of server SQLite GET \(limiter off\); \d+% of its floor \(a Redis call per request\)$/,
    );
    expect(report.redisLimitedOverFloor).toBeGreaterThan(0);
  });

  it('relates the SQLite GET, list and POST to their floors (same database and schema)', () => {
    for (const load of ['get', 'list', 'post'] as const) {
      expect(report.sqliteOverFloor[load], load).toBeGreaterThan(0);
      expect(report.rows.find((r) => r.id === `sqlite-${load}`)!.note, load).toMatch(/^\d+% of its floor$/);
    }
  });

  it("gives the version machinery's share of the profiled SQLite GET server's CPU", () => {
    // A smoke run profiles half a second: the machinery may fall between samples, so 0 is well-formed too.
    expect(report.versionsShare).toBeGreaterThanOrEqual(0);
    expect(report.versionsShare).toBeLessThan(1);
    expect(report.rows.find((r) => r.id === 'sqlite-get-versions')!.note).toMatch(/^version machinery \d+\.\d\d% of its CPU \(V8 profile\); profiling: \d+% of server SQLite GET$/);
  });

  it("measures seller B beside seller A's backlog at a black hole, seeded and built through the API, on both databases", () => {
    for (const db of ['sqlite', 'postgres'] as const) {
      const seeded = report.backlog.seeded[db]!;
      // Every seeded row waits (the black hole answers nothing; at most a few are in an attempt, still waiting).
      expect(seeded.waiting, db).toBe(report.config.backlog.seeded[db]);
      for (const side of [seeded.before, seeded.after]) {
        expect(side.get.p50, db).toBeGreaterThan(0);
        expect(side.dueP99, db).toBeGreaterThan(0);
        expect(Number.isFinite(side.dueP99), db).toBe(true);
      }
      expect(seeded.lost, db).toBe(0);
      expect(report.rows.find((r) => r.id === `backlog-seeded-${db}`)!.note).toMatch(/^sequential GETs; p50 \d+\.\d\d× no backlog .*; B's due-to-first-attempt p99 /);
      const api = report.backlog.api[db]!;
      // Each PATCH fans out to every endpoint of A, and none of them is ever answered.
      expect(api.waiting, db).toBe(report.config.backlog.api.patches * report.config.backlog.api.endpoints);
      expect(api.idleCores, db).toBeGreaterThanOrEqual(0);
      expect(api.before.p50, db).toBeGreaterThan(0);
      expect(api.after.p50, db).toBeGreaterThan(0);
      expect(api.failures, db).toBe(0);
    }
  });

  it('compares the SDK with raw fetch and the server with Prism, and checks every target', () => {
    for (const mode of ['sequential', 'concurrent'] as const) {
      expect(report.sdk![mode].sdkMs).toBeGreaterThan(0);
      expect(report.sdk![mode].fetchMs).toBeGreaterThan(0);
      expect(Number.isFinite(report.sdk![mode].overhead)).toBe(true);
      expect(Number.isFinite(report.sdk![mode].overheadVsTimed)).toBe(true);
      // The client's CPU per call, per side, and the per-batch ratios the median is taken of.
      expect(report.sdk![mode].sdkCpuUs).toBeGreaterThan(0);
      expect(report.sdk![mode].timedCpuUs).toBeGreaterThan(0);
      expect(report.sdk![mode].batchRatiosVsTimed).toHaveLength(report.config.sdk.batches);
      expect(report.rows.find((r) => r.id === `sdk-${mode}`)!.note).toMatch(/; client CPU \d+ µs\/call vs \d+ with the signal: [+-]\d+\.\d%$/);
    }
    expect(report.serverOverPrism).toBeGreaterThan(0);
    expect(report.mockOverPrism).toBeGreaterThan(0);
    expect(report.rows.find((r) => r.id === 'mock-get')!.note).toMatch(/× Prism GET/);
    expect(report.scaleP99Ratio).toBeGreaterThan(0);
    expect(report.listScaleP99Ratio.sqlite).toBeGreaterThan(0);
    expect(report.listScaleP99Ratio.postgres).toBeGreaterThan(0);
    expect(report.postScaleP99Ratio.sqlite).toBeGreaterThan(0);
    expect(report.postScaleP99Ratio.postgres).toBeGreaterThan(0);
    expect(report.listOverGet).toBeGreaterThan(0);
    const checks = checkTargets(report);
    // 29, and issue 36's four per database for the backlog rows.
    expect(checks).toHaveLength(29 + 8);
    for (const check of checks) expect(check.actual).not.toMatch(/NaN/);
  });

  it('prints one table and writes it between the markers of BENCHMARKS.md, keeping the hand-written parts', () => {
    const table = resultTable(report);
    expect(table.split('\n')).toHaveLength(report.rows.length + 2);
    expect(targetTable(report)).toContain('| server GET (SQLite) vs the ceiling | ≥ 70% |');
    const dir = mkdtempSync(join(tmpdir(), 'bench-md-'));
    try {
      const file = join(dir, 'BENCHMARKS.md');
      writeFileSync(file, `# Benchmarks\n\nMethod, written by hand.\n\n${START}\nold\n${END}\n\n## Before and after\n`);
      writeBenchmarksFile(file, resultsSection(report, join(dir, 'missing.yaml')));
      const written = readFileSync(file, 'utf8');
      expect(written).toContain('Method, written by hand.');
      expect(written).toContain('## Before and after');
      expect(written).not.toContain('\nold\n');
      expect(written).toContain(table);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

});
