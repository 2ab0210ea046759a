import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { connectDatabase, sqliteWriter, type DatabaseHandle } from '../../db/connect.js';
import { writeTransaction } from '../../db/write-transaction.js';
import { SQLITE_REQUEST_LOG_INSERT } from './request-log-store.js';

/** A SQLite database file's request log lives in a file of its own beside it (README: "Request logs"). */
export function requestLogFileOf(databaseFile: string): string {
  return `${databaseFile}-request-logs`;
}

/**
 * The request log file's table, as migrations 022, 025 and 035 leave `request_logs` in the main database (which
 * PostgreSQL and in-memory SQLite still use), without the foreign key to `sellers` (another file).
 */
const SCHEMA = [
  `create table if not exists request_logs (id integer primary key autoincrement, seller_id text not null,
    occurred_at text not null, method text not null, path text not null, status integer not null,
    duration_ms real not null, key_id text, key_name text, key_prefix text, request_id text not null,
    api_version text, mode text not null default 'live', request_body text, error_body text, client_request_id text)`,
  'create index if not exists request_logs_seller_id on request_logs (seller_id, id)',
  'create index if not exists request_logs_seller_request on request_logs (seller_id, request_id)',
  `create index if not exists request_logs_seller_client_request on request_logs (seller_id, client_request_id)
    where client_request_id is not null`,
];

/** Rows moved per step from the main database's `request_logs` (rows recorded before the file existed). */
const MOVE_BATCH = 5_000;

/**
 * The writing thread's heap (MB): it holds one batch of rows and a prepared statement, and V8's defaults (a young
 * generation sized for throughput, an old generation of a quarter of the machine) cost the process 40-60 MB of
 * RSS for that (issue 39's peak RSS row). A thread that outgrows them stops; the next write starts a new one.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

/**
 * The writing thread: its own connection to the request log file, one transaction per batch of rows (arrays of
 * values in SQLITE_REQUEST_LOG_INSERT's order). Plain JavaScript in a string, so it runs the same from the
 * TypeScript source (tests) and from the bundle; better-sqlite3 is required by the absolute path the main thread
 * resolved.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
// better-sqlite3 builds SQLite with a 16 MB page cache per connection; a writer that appends needs the right edge
// of each index (2 MB held 20 MB less of the process's memory under load, issue 39).
db.pragma('cache_size = -2000');
const insert = db.prepare(workerData.insert);
const writeAll = db.transaction((rows) => { for (const row of rows) insert.run(row); });
parentPort.on('message', ({ id, rows }) => {
  try {
    writeAll(rows);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

export interface RequestLogFile {
  /** The file's database: the dashboard reads it, the recorder prunes it. */
  handle: DatabaseHandle;
  /** Writes rows (values in SQLITE_REQUEST_LOG_INSERT's order) in one transaction on the writing thread. */
  write(rows: unknown[][]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the request log file of a SQLite database file (undefined for PostgreSQL and in-memory SQLite, whose
 * `request_logs` table is used as it is). Its rows are written by a thread of their own with `synchronous=NORMAL`
 * and never share the main database's write lock, WAL or checkpoints: recording costs the event loop one
 * structured clone per batch instead of SQLite's inserts, commits and checkpoints (issue 39's bench rows). The
 * last rows before a power loss may be lost (a request log is for a seller's eyes, not a ledger). Rows the main
 * database's `request_logs` still holds (recorded by an earlier version) are moved into it first.
 */
export async function openRequestLogFile(main: DatabaseHandle): Promise<RequestLogFile | undefined> {
  if (main.dialect !== 'sqlite' || main.file === undefined) return undefined;
  const file = requestLogFileOf(main.file);
  const handle = connectDatabase(`sqlite:${file}`, { sqliteSynchronous: 'normal' });
  for (const statement of SCHEMA) await sql.raw(statement).execute(handle.db);
  await moveEarlierRows(main, handle);
  const thread = writingThread(file);
  return {
    handle,
    write: thread.write,
    async close() {
      await thread.close();
      await handle.close();
    },
  };
}

/** Moves the main database's request log rows into the file, oldest first, a bounded batch per step. */
async function moveEarlierRows(main: DatabaseHandle, logs: DatabaseHandle): Promise<void> {
  for (;;) {
    // Taken out in one statement, so two processes starting at once never both move a row.
    const rows = await main.db
      .deleteFrom('request_logs')
      .where('id', 'in', (eb) => eb.selectFrom('request_logs').select('id').orderBy('id').limit(MOVE_BATCH))
      .returningAll()
      .execute();
    if (rows.length === 0) return;
    rows.sort((a, b) => Number(a.id) - Number(b.id));
    const writeRun = sqliteWriter(logs);
    await writeTransaction(logs, async () => {
      for (const row of rows) {
        writeRun(SQLITE_REQUEST_LOG_INSERT, [
          row.seller_id, row.occurred_at, row.method, row.path, row.status, row.duration_ms, row.key_id, row.key_name,
          row.key_prefix, row.request_id, row.api_version, row.mode, row.request_body, row.error_body, row.client_request_id,
        ]);
      }
    });
  }
}

/**
 * The writing thread, started at the first write; it keeps the process alive only while a write is under way. A
 * thread that stops (it could not open the file, or outgrew THREAD_LIMITS) fails the writes it holds, which the
 * recorder counts as dropped, and the next write starts a new one.
 */
function writingThread(file: string): Pick<RequestLogFile, 'write' | 'close'> {
  type Waiter = { resolve: () => void; reject: (error: Error) => void };
  let current: { worker: Worker; pending: Map<number, Waiter> } | undefined;
  let nextId = 0;
  const start = () => {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), insert: SQLITE_REQUEST_LOG_INSERT },
      resourceLimits: THREAD_LIMITS,
    });
    const thread = { worker, pending: new Map<number, Waiter>() };
    const settle = (id: number, error?: Error) => {
      const waiter = thread.pending.get(id);
      thread.pending.delete(id);
      if (thread.pending.size === 0) worker.unref();
      if (error) waiter?.reject(error);
      else waiter?.resolve();
    };
    const stopped = (error: Error) => {
      if (current === thread) current = undefined;
      for (const id of [...thread.pending.keys()]) settle(id, error);
    };
    worker.on('message', ({ id, error }: { id: number; error?: string }) => settle(id, error === undefined ? undefined : new Error(error)));
    worker.on('error', stopped);
    worker.on('exit', () => stopped(new Error('the request log thread stopped')));
    worker.unref();
    return thread;
  };
  return {
    write(rows) {
      const thread = (current ??= start());
      const id = nextId++;
      const written = new Promise<void>((resolve, reject) => thread.pending.set(id, { resolve, reject }));
      thread.worker.ref();
      thread.worker.postMessage({ id, rows });
      return written;
    },
    async close() {
      const thread = current;
      current = undefined;
      await thread?.worker.terminate();
    },
  };
}
