import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';
import { currentTraceContext, POSTGRES_TRACE_SETTING, SQLITE_TRACE_FUNCTION } from '../observability/trace-context.js';
import { describeStatement, type QueryObserver, type StatementInfo } from '../observability/query-observer.js';
import { DatabaseUnavailableError, typingErrors, type UnavailableKind } from './database-unavailable.js';
import { ISO_TIMESTAMP_TYPES } from './postgres-timestamps.js';
import { createPostgresPool, type PostgresPool } from './postgres-pool.js';
import { withoutCredentials } from '../observability/redact-args.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The location with any password removed, safe to log. */
  display: string;
  /** SQLite files only: the database file's absolute path (the request log's own file sits beside it). */
  file?: string;
  /**
   * SQLite files only: runs a read synchronously on a second connection that sees committed data only, never
   * waiting for (or reading inside) a write transaction on `db`'s connection. Hot reads use it.
   */
  readCommitted?: (sql: string, parameters: readonly unknown[]) => unknown[];
  /**
   * SQLite only: runs one writing statement synchronously on `db`'s own connection (its prepared statement reused).
   * Only inside a work of write-transaction.ts, which holds that connection: a create's hot path without Kysely's
   * per-statement promises.
   */
  writeRun?: (sql: string, parameters: readonly unknown[]) => { changes: number };
  /**
   * SQLite only: whether `db`'s connection has a transaction open now (one of Kysely's, across its awaits). The
   * group commit runs a group of synchronous statements on that connection itself only when it has none.
   */
  writeInTransaction?: () => boolean;
  /**
   * SQLite only: a number that stays the same while no API key or seller can have changed since it was last
   * returned, for answers kept in memory (api-keys.ts). It changes when any other connection, of this process or
   * another (the CLI, a second server), has committed anything since (SQLite's `data_version`), and when this
   * connection runs a statement that writes `api_keys` or `sellers`. Undefined while this connection has a
   * transaction open (what it wrote is not committed yet): nothing may be kept then.
   */
  keysVersion?: () => number | undefined;
  /**
   * PostgreSQL only: runs one statement as a named prepared statement on a pooled connection, outside any
   * transaction (autocommit). Each connection parses and plans a name once; hot paths pay one round trip.
   */
  prepared?: (statement: PreparedStatement, parameters: readonly unknown[]) => Promise<unknown[]>;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections, for the metrics (in use = total - idle). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  /** Set on a handle whose `db` is already a transaction (audit/audit-log.ts): writeTransaction joins it. */
  inTransaction?: boolean;
}

/** A SQLite handle's write-connection statement runner: every SQLite handle {@link connectDatabase} opens has one. */
export function sqliteWriter(handle: DatabaseHandle): NonNullable<DatabaseHandle['writeRun']> {
  if (!handle.writeRun) throw new Error('A SQLite handle without writeRun: open it with connectDatabase (db/connect.ts)');
  return handle.writeRun;
}

/** A statement PostgreSQL prepares once per connection under `name` (unique per SQL text). */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** Connections per server process on PostgreSQL unless configured (see BENCHMARKS.md for the measurement). */
export const DEFAULT_POSTGRES_POOL_SIZE = 10;

export const DEFAULT_DATABASE_URL = 'sqlite:./data/customers.db';

/**
 * `serve`'s PostgreSQL statement timeout: well below the 30 s request timeout, so a statement stuck behind a lock
 * or a slow plan ends as a 503 with Retry-After while the client still waits, and frees its connection.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** SQLite's `synchronous` pragma values we offer; `full` is the default. */
export const SQLITE_SYNCHRONOUS_MODES = ['full', 'normal'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

export interface ConnectOptions {
  /** Connections per process on PostgreSQL. */
  poolSize?: number;
  /**
   * SQLite only. `full` (default): every commit is on disk before it is acknowledged, so an acknowledged create
   * survives power loss (group commit in write-transaction.ts shares one fsync among the works of a turn).
   * `normal`: in WAL mode the last commits may be lost on power loss (never corrupted); faster.
   */
  sqliteSynchronous?: SqliteSynchronous;
  /** Sees every statement (observability/query-observer.ts: metrics, traces); nothing is wrapped when omitted. */
  observer?: QueryObserver | undefined;
  /** Told each time a database error means the database does not answer (the metric of database errors by kind). */
  onUnavailable?: ((kind: UnavailableKind) => void) | undefined;
  /**
   * PostgreSQL only: `statement_timeout` of every connection, in ms (none when omitted or 0; `serve` sets
   * DEFAULT_STATEMENT_TIMEOUT_MS). A statement it cancels is a 503 with Retry-After, like a database that does not answer.
   */
  statementTimeoutMs?: number | undefined;
  /** SQLite only: sees the text of every statement the writing connection runs, parameters inlined (tests count a claim's work). */
  sqliteTrace?: ((sql: string) => void) | undefined;
}

/**
 * Opens `sqlite:<path>` (WAL, busy timeout, foreign keys, synchronous FULL unless asked otherwise) or
 * `postgres://...` / `postgresql://...`.
 *
 * @example
 * const handle = connectDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
 */
export function connectDatabase(url: string, options: ConnectOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return connectSqlite(sqlitePath(url), options.sqliteSynchronous ?? 'full', options);
  if (/^postgres(ql)?:\/\//.test(url)) return connectPostgres(url, options.poolSize ?? DEFAULT_POSTGRES_POOL_SIZE, options);
  throw new Error(
    `Unsupported database URL "${redactUrl(url)}": use sqlite:<path> or postgres://user:password@host:port/database`,
  );
}

/** The file path of a `sqlite:` URL. */
export function sqlitePath(url: string): string {
  const rest = url.slice('sqlite:'.length);
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path === '') throw new Error('The sqlite: database URL needs a file path, e.g. sqlite:./data/customers.db');
  return path;
}

/**
 * Creates a missing database file empty (a valid SQLite database) with mode 0600, and its missing folders 0700:
 * SQLite gives the -wal and -shm files it makes later the main file's mode, so customer data, API key hashes and
 * sealed secrets are readable by the owner only. An existing file keeps the mode its operator gave it.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, '', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function connectSqlite(
  path: string,
  synchronous: SqliteSynchronous,
  { observer, onUnavailable, sqliteTrace: trace }: ConnectOptions,
): DatabaseHandle {
  const typed = typingErrors(onUnavailable);
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') createPrivately(file);
  const sqlite = new SqliteDatabase(file, trace ? { verbose: (sql) => trace(String(sql)) } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  // The outbox trigger asks which request is writing (migration 011); null when untraced.
  sqlite.function(SQLITE_TRACE_FUNCTION, { deterministic: false }, () => currentTraceContext() ?? null);
  let keysVersion = 0;
  let dataVersion: number | undefined;
  const dataVersionNow = sqlite.prepare('pragma data_version').pluck();
  const writer = withStatementCache(sqlite, observer, typed, () => keysVersion++);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: writer }) });
  const handle: DatabaseHandle = {
    db,
    dialect: 'sqlite',
    display: `sqlite:${file}`,
    writeRun: (sql, parameters) => writer.prepare(sql).run(...parameters),
    writeInTransaction: () => sqlite.inTransaction,
    keysVersion: () => {
      if (sqlite.inTransaction) return undefined;
      // Another connection's commit: it may have been a key or a seller.
      const current = dataVersionNow.get() as number;
      if (current !== dataVersion) {
        dataVersion = current;
        keysVersion++;
      }
      return keysVersion;
    },
    close: () => db.destroy(),
  };
  if (file === ':memory:') return handle;
  // Kysely has one SQLite connection behind a mutex: every GET would queue behind a create's whole transaction.
  // A second connection (WAL: readers never block the writer) answers hot reads at once, from committed data.
  const reader = new SqliteDatabase(file);
  reader.pragma('busy_timeout = 5000');
  reader.pragma('query_only = ON');
  const statements = withStatementCache(reader, observer, typed);
  return {
    ...handle,
    file,
    readCommitted: (sql, parameters) => statements.prepare(sql).all(...parameters),
    close: async () => {
      await db.destroy();
      reader.close();
    },
  };
}

const STATEMENT_CACHE_SIZE = 200;

/** Any statement but a plain read that names the keys' or sellers' table (DDL included): it may change a key. */
const WRITES_KEYS = /^(?!\s*select\b)[\s\S]*\b(api_keys|sellers)\b/i;

/**
 * Kysely prepares every query it runs, and better-sqlite3 compiles SQL on each prepare() (about a sixth of a
 * GET's CPU time, profiled). The few distinct SQL texts the server runs are compiled once and reused; the
 * connection is used by one query at a time (Kysely's mutex), so a statement is never run twice at once.
 * `onKeysWrite` is called each time a statement that may write a key or a seller is about to run.
 */
function withStatementCache(
  sqlite: SqliteDatabase.Database,
  observer: QueryObserver | undefined,
  typed: (error: unknown) => unknown,
  onKeysWrite?: () => void,
) {
  const statements = new Map<string, { statement: SqliteDatabase.Statement; writesKeys: boolean }>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let entry = statements.get(sql);
      if (!entry) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        let statement: SqliteDatabase.Statement;
        try {
          statement = sqlite.prepare(sql);
        } catch (error) {
          throw typed(error);
        }
        if (observer) statement = observedStatement(statement, observer, describeStatement(sql));
        statement = typedStatement(statement, typed);
        entry = { statement, writesKeys: onKeysWrite !== undefined && WRITES_KEYS.test(sql) };
        statements.set(sql, entry);
      }
      if (entry.writesKeys) onKeysWrite!();
      return entry.statement;
    },
  };
}

/**
 * The statement with SQLITE_BUSY past the busy timeout and I/O errors thrown as DatabaseUnavailableError (503), like
 * PostgreSQL's lost connections; a try/catch per run costs nothing until something throws.
 */
function typedStatement(statement: SqliteDatabase.Statement, typed: (error: unknown) => unknown): SqliteDatabase.Statement {
  const run = <A extends unknown[], R>(method: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return method(...args);
      } catch (error) {
        throw typed(error);
      }
    };
  return {
    reader: statement.reader,
    all: run((...args: unknown[]) => statement.all(...args)),
    get: run((...args: unknown[]) => statement.get(...args)),
    run: run((...args: unknown[]) => statement.run(...args)),
    iterate: run((...args: unknown[]) => statement.iterate(...args)),
  } as unknown as SqliteDatabase.Statement;
}

/** The statement with its runs seen by `observer`: what Kysely's SQLite driver and readCommitted use of it. */
function observedStatement(statement: SqliteDatabase.Statement, observer: QueryObserver, info: StatementInfo): SqliteDatabase.Statement {
  const query = { system: 'sqlite', ...info } as const;
  // An observer that only times (metrics alone): two clock reads per run, no closure, no lookup.
  const time = observer.timer?.(query);
  const observe = <A extends unknown[], R>(run: (...args: A) => R) =>
    time
      ? (...args: A): R => {
          const start = performance.now();
          try {
            return run(...args);
          } finally {
            time((performance.now() - start) / 1000);
          }
        }
      : (...args: A): R => {
          const end = observer(query);
          try {
            const result = run(...args);
            end();
            return result;
          } catch (error) {
            end(error);
            throw error;
          }
        };
  return {
    reader: statement.reader,
    all: observe((...args: unknown[]) => statement.all(...args)),
    get: observe((...args: unknown[]) => statement.get(...args)),
    run: observe((...args: unknown[]) => statement.run(...args)),
    iterate: observe((...args: unknown[]) => statement.iterate(...args)),
  } as unknown as SqliteDatabase.Statement;
}

function connectPostgres(url: string, poolSize: number, options: ConnectOptions): DatabaseHandle {
  const pool = createPostgresPool(url, poolSize, { observer: options.observer, onUnavailable: options.onUnavailable, statementTimeoutMs: options.statementTimeoutMs });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    display: redactUrl(url),
    poolStats: () => ({ total: pool.raw.totalCount, idle: pool.raw.idleCount, waiting: pool.raw.waitingCount, max: poolSize }),
    // pool.query takes a connection, sends Parse (first use on it) / Bind / Execute / Sync at once, and gives it back.
    prepared: async ({ name, text }, parameters) => {
      const trace = currentTraceContext();
      if (trace !== undefined) return preparedWithTrace(pool, { name, text }, parameters, trace);
      // Timestamps come back as the API's strings (postgres-timestamps.ts): every caller maps rows with toIso.
      return (await pool.query({ name, text, values: parameters as unknown[], types: ISO_TIMESTAMP_TYPES })).rows;
    },
    close: () => db.destroy(),
  };
}

/**
 * A traced request's statement, in a transaction that first sets the trace context the outbox's column default
 * reads (migration 011): two more round trips, paid only while tracing.
 */
async function preparedWithTrace(pool: PostgresPool, statement: PreparedStatement, parameters: readonly unknown[], trace: string) {
  const client = await pool.connect();
  let lost = false;
  try {
    // `trace` is a checked traceparent (observability/trace-context.ts): hex digits and dashes only.
    await client.query(`begin; select set_config('${POSTGRES_TRACE_SETTING}', '${trace}', true)`);
    const { rows } = await client.query({ ...statement, values: parameters as unknown[], types: ISO_TIMESTAMP_TYPES });
    await client.query('commit');
    return rows;
  } catch (error) {
    lost = error instanceof DatabaseUnavailableError;
    if (!lost) await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    // A connection that failed is discarded, not handed to the next request.
    client.release(lost);
  }
}

/** A connection URL without its user and password, safe to log (one rule with the telemetry's: redact-args.ts). */
export function redactUrl(url: string): string {
  return withoutCredentials(url);
}
