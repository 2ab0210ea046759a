import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The location with any password removed, safe to log. */
  display: string;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/customers.db';

export interface ConnectOptions {
  /** Connections per process on PostgreSQL. */
  poolSize?: number;
}

/**
 * Opens `sqlite:<path>` (WAL, busy timeout, foreign keys) or `postgres://...` / `postgresql://...`.
 *
 * @example
 * const handle = connectDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
 */
export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return connectSqlite(sqlitePath(url));
  if (/^postgres(ql)?:\/\//.test(url)) return connectPostgres(url, options.poolSize ?? 10);
  throw new Error(
    `Unsupported database URL "${redactUrl(url)}": use sqlite:<path> or postgres://user:password@host:port/database`,
  );
}

function sqlitePath(url: string): string {
  const rest = url.slice('sqlite:'.length);
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path === '') throw new Error('The sqlite: database URL needs a file path, e.g. sqlite:./data/customers.db');
  return path;
}

function connectSqlite(path: string): DatabaseHandle {
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', display: `sqlite:${file}`, close: () => db.destroy() };
}

function connectPostgres(url: string, poolSize: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', display: redactUrl(url), close: () => db.destroy() };
}

/** Removes the password from a connection URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  }
}
