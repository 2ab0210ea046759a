import type { BenchReport, Row } from './run-benchmarks.js';
import { checkTargets } from './targets.js';

const MB = 1024 * 1024;

function cells(row: Row): string[] {
  return [
    row.label,
    row.rps >= 100 ? Math.round(row.rps).toLocaleString('en') : row.rps.toFixed(1),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    row.ratio === undefined ? '' : `${(row.ratio * 100).toFixed(0)}%`,
    row.cpuUs === undefined ? '' : row.cpuUs.toFixed(0),
    row.peakRss === undefined ? '' : `${(row.peakRss / MB).toFixed(0)}`,
    [row.note, row.failures ? `${row.failures} failed` : undefined].filter(Boolean).join('; '),
  ];
}

const HEADER = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs ceiling', 'CPU µs/req', 'peak RSS MB', 'notes'];

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
  for (const load of ['get', 'post', 'mixed']) {
    const before = report.rows.find((r) => r.id === `before-${load}`);
    const after = report.rows.find((r) => r.id === `normal-${load}`);
    if (before && after) pairs.push([load, before, after]);
  }
  if (pairs.length === 0) return undefined;
  const pct = (row: Row) => `${((row.ratio ?? Number.NaN) * 100).toFixed(0)}%`;
  const rps = (row: Row) => Math.round(row.rps).toLocaleString('en');
  const cpu = (row: Row) => (row.cpuUs ?? Number.NaN).toFixed(0);
  return [
    '| SQLite, synchronous=normal | before req/s | after req/s | before vs ceiling | after vs ceiling | before CPU µs/req | after CPU µs/req |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...pairs.map(([load, before, after]) =>
      `| ${load.toUpperCase()} | ${rps(before)} | ${rps(after)} | ${pct(before)} | ${pct(after)} | ${cpu(before)} | ${cpu(after)} |`,
    ),
  ].join('\n');
}
