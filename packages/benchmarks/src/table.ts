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
