// pnpm bench: the full run, printed and written into BENCHMARKS.md at the repository root.
// Options: --smoke (the seconds-long test configuration), --no-write (print only). A server row above 100% of its
// floor fails the run (exit 1, both rows named; not with --smoke). For experiments (printed only):
// BENCH_ONLY=sqlite-get,prism-get,sdk,msw-get  BENCH_DELIVERIES  BENCH_ROUNDS  BENCH_DURATION  BENCH_CONNECTIONS  BENCH_LOG_LEVEL
// BENCH_BEFORE=/abs/path/to/old-server-bundle.js adds before-get/list/post/mixed (the old server on its own database).
// BENCH_CPU_PROF=dir: each Node target writes a V8 CPU profile (node --cpu-prof) there when it stops.
// BENCH_PG_STATEMENTS=1: PostgreSQL runs pg_stat_statements; each database's (each row's) top statements by time are
// printed before it stops: where the PostgreSQL rows' CPU goes (planning included).
// BENCH_SDK_AA=1: the SDK rows measure raw fetch with the signal against itself (an A/A check of the method's width).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FULL, SMOKE, type BenchConfig } from './config.js';
import { serversAboveFloors } from './floor-check.js';
import { resultsSection, writeBenchmarksFile } from './report.js';
import { runBenchmarks } from './run-benchmarks.js';
import { beforeAfterTable, resultTable, targetTable } from './table.js';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const args = process.argv.slice(2);
const env = process.env;
const config: BenchConfig = {
  ...(args.includes('--smoke') ? SMOKE : FULL),
  ...(env.BENCH_ROUNDS ? { rounds: Number(env.BENCH_ROUNDS) } : {}),
  ...(env.BENCH_DURATION ? { durationSeconds: Number(env.BENCH_DURATION) } : {}),
  ...(env.BENCH_CONNECTIONS ? { connections: Number(env.BENCH_CONNECTIONS) } : {}),
  ...(env.BENCH_LOG_LEVEL ? { logLevel: env.BENCH_LOG_LEVEL } : {}),
  ...(env.BENCH_ONLY ? { only: env.BENCH_ONLY.split(',') } : {}),
  ...(env.BENCH_BEFORE ? { before: env.BENCH_BEFORE } : {}),
  ...(env.BENCH_CPU_PROF ? { cpuProfileDir: resolve(env.BENCH_CPU_PROF) } : {}),
  ...(env.BENCH_PG_STATEMENTS ? { pgStatements: true } : {}),
};
// The delivery rows' size, for a quick before/after of only them (BENCH_ONLY=delivery-sqlite,delivery-postgres).
if (env.BENCH_DELIVERIES) config.delivery = { ...config.delivery, deliveries: Number(env.BENCH_DELIVERIES) };
// A full run with an old build beside it (BENCH_BEFORE) still writes BENCHMARKS.md; any other override only prints.
const partial = args.includes('--smoke') || Object.keys(env).some((name) => name.startsWith('BENCH_') && name !== 'BENCH_BEFORE');

const report = await runBenchmarks(config, (line) => console.log(`[bench] ${line}`));
console.log(`\n${resultTable(report)}\n\n${targetTable(report)}\n\n${beforeAfterTable(report) ?? ''}`);
// A server row above 100% of its floor fails the run (issue 41), partial runs included; the smoke's figures mean
// nothing, so it is not judged. A failed run writes nothing.
const aboveFloors = args.includes('--smoke') ? [] : serversAboveFloors(report);
for (const message of aboveFloors) console.error(`[bench] failed: ${message}`);
if (aboveFloors.length > 0) process.exitCode = 1;
else if (!args.includes('--no-write') && !partial) {
  writeBenchmarksFile(root('BENCHMARKS.md'), resultsSection(report, root('pnpm-workspace.yaml')));
  console.log('written to BENCHMARKS.md');
}
