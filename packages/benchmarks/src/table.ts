import type { BenchReport, Row } from './run-benchmarks.js';
import { checkTargets } from './targets.js';

const MB = 1024 * 1024;

function cells(row: Row): string[] {
  return [
    row.label,
    row.rps >= 100 ? Math.round(row.rps).toLocaleString('en') : row.rps.toFixed(1),
    Number.isFinite(row.p50) ? row.p50.toFixed(2) : '',
    Number.isFinite(row.p99) ? row.p99.toFixed(2) : '',
    row.ratio === undefined ? '' : `${(row.ratio * 100).toFixed(0)}%`,
    row.cpuUs === undefined ? '' : row.cpuUs.toFixed(0),
    row.dbCpuUs === undefined || !Number.isFinite(row.dbCpuUs) ? '' : row.dbCpuUs.toFixed(0),
    row.peakRss === undefined ? '' : `${(row.peakRss / MB).toFixed(0)}`,
    [row.note, row.failures ? `${row.failures} failed` : undefined].filter(Boolean).join('; '),
  ];
}

const HEADER = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs ceiling', 'CPU µs/req', 'PostgreSQL CPU µs/req', 'peak RSS MB', 'notes'];

/** The results as a Markdown table (also readable as plain text). */
export function resultTable(report: BenchReport): string {
  const lines = [HEADER, HEADER.map((_, i) => (i === 0 || i === HEADER.length - 1 ? '---' : '---:')), ...report.rows.map(cells)];
  return lines.map((line) => `| ${line.join(' | ')} |`).join('\n');
}

export function targetTable(report: BenchReport): string {
  const lines = [
    '| target | goal | this run | |',
    '|---|---|---|---|',
    ...checkTargets(report).map((t) => `| ${t.name} | ${t.goal} | ${t.actual} | ${t.met ? 'met' : '**missed**'} |`),
  ];
  return lines.join('\n');
}

/** With BENCH_BEFORE: the old server beside the current one, per workload, from the same run. */
export function beforeAfterTable(report: BenchReport): string | undefined {
  const pairs: Array<[string, Row, Row]> = [];
  for (const load of ['get', 'list', 'post', 'mixed']) {
    const before = report.rows.find((r) => r.id === `before-${load}`);
    const after = report.rows.find((r) => r.id === `normal-${load}`);
    if (before && after) pairs.push([load, before, after]);
  }
  const pgPairs: Array<[string, Row, Row]> = [];
  for (const load of ['get', 'list', 'post', 'patch', 'mixed']) {
    const before = report.rows.find((r) => r.id === `before-postgres-${load}`);
    const after = report.rows.find((r) => r.id === `postgres-${load}`);
    if (before && after) pgPairs.push([load, before, after]);
  }
  if (pairs.length === 0 && pgPairs.length === 0) return undefined;
  const pct = (row: Row) => `${((row.ratio ?? Number.NaN) * 100).toFixed(0)}%`;
  const rps = (row: Row) => Math.round(row.rps).toLocaleString('en');
  const cpu = (row: Row) => (row.cpuUs ?? Number.NaN).toFixed(0);
  const floorOf = (load: string) => report.rows.find((r) => r.id === `floor-pg-${load}`);
  const ofFloor = (row: Row, load: string) => {
    const floor = floorOf(load);
    return floor ? `${((row.rps / floor.rps) * 100).toFixed(0)}%` : '';
  };
  const db = (row: Row) => (row.dbCpuUs ?? Number.NaN).toFixed(0);
  const pgTable = [
    '| PostgreSQL | before req/s | after req/s | before vs floor | after vs floor | before CPU µs/req (server + PostgreSQL) | after CPU µs/req (server + PostgreSQL) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...pgPairs.map(([load, before, after]) =>
      `| ${load.toUpperCase()} | ${rps(before)} | ${rps(after)} | ${ofFloor(before, load)} | ${ofFloor(after, load)} | ${cpu(before)} + ${db(before)} | ${cpu(after)} + ${db(after)} |`,
    ),
  ];
  if (pairs.length === 0) return pgTable.join('\n');
  return [
    ...(pgPairs.length ? [...pgTable, ''] : []),
    '| SQLite, synchronous=normal | before req/s | after req/s | before vs ceiling | after vs ceiling | before CPU µs/req | after CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...pairs.map(([load, before, after]) =>
      `| ${load.toUpperCase()} | ${rps(before)} | ${rps(after)} | ${pct(before)} | ${pct(after)} | ${cpu(before)} | ${cpu(after)} |`,
    ),
  ].join('\n');
}
