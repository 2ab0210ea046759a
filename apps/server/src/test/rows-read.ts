import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { connectDatabase, type DatabaseHandle, type DialectName } from '../db/connect.js';

// What a piece of database work reads, as counts the databases keep themselves (never a time):
// - PostgreSQL: tuples read by every scan of every user table (seq_tup_read) and entries read from every index
//   (idx_tup_read), from pg_stat_*, on a one-connection pool whose stats are flushed before and after;
// - SQLite: better-sqlite3 exposes no sqlite3_stmt_status, so the statements the work ran (traced, parameters
//   inlined) are run again by the sqlite3 shell with `.stats on`, inside a transaction rolled back, and its
//   "Virtual Machine Steps" (SQLITE_STMTSTATUS_VM_STEP) are summed: steps grow with every row a statement visits.

export interface WorkRead<T> {
  result: T;
  /** PostgreSQL: rows and index entries read; SQLite: virtual machine steps, or undefined without the sqlite3 shell. */
  count: number | undefined;
  /** The statements run (SQLite only), for a query plan check. */
  statements: string[];
}

/** Whether the sqlite3 shell is on PATH (the SQLite count needs it). */
export const HAS_SQLITE_SHELL = (() => {
  try {
    execFileSync('sqlite3', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Runs `work` on a handle of its own to the database at `url` and counts what it read. */
export async function countRowsRead<T>(dialect: DialectName, url: string, work: (handle: DatabaseHandle) => Promise<T>): Promise<WorkRead<T>> {
  if (dialect === 'postgres') return countPostgres(url, work);
  const statements: string[] = [];
  const handle = connectDatabase(url, { sqliteTrace: (sql) => statements.push(sql) });
  try {
    const result = await work(handle);
    const replayed = statements.filter((sql) => /^\s*(select|with|update|insert|delete)\b/i.test(sql));
    return { result, count: HAS_SQLITE_SHELL ? sqliteSteps(url.slice('sqlite:'.length), replayed) : undefined, statements: replayed };
  } finally {
    await handle.close();
  }
}

function sqliteSteps(file: string, statements: string[]): number {
  const script = ['.stats on', 'begin;', ...statements.map((sql) => `${sql.trim()};`), 'rollback;'].join('\n');
  const output = execFileSync('sqlite3', [file], { input: script, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...output.matchAll(/Virtual Machine Steps:\s+(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

async function countPostgres<T>(url: string, work: (handle: DatabaseHandle) => Promise<T>): Promise<WorkRead<T>> {
  // One connection: its pending stats are the only ones, and pg_stat_force_next_flush() publishes them as it idles.
  const handle = connectDatabase(url, { poolSize: 1 });
  const read = async () => {
    await sql`select pg_stat_force_next_flush()`.execute(handle.db);
    const { rows } = await sql<{ n: string }>`select
      (select coalesce(sum(seq_tup_read), 0) from pg_stat_user_tables) +
      (select coalesce(sum(idx_tup_read), 0) from pg_stat_user_indexes) as n`.execute(handle.db);
    return Number(rows[0]!.n);
  };
  try {
    const before = await read();
    const result = await work(handle);
    const after = await read();
    return { result, count: after - before, statements: [] };
  } finally {
    await handle.close();
  }
}
