import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import { bindToCurrentContext, captureTraceContext, POSTGRES_TRACE_SETTING, withTraceContext, withTraceContextSync } from '../observability/trace-context.js';
import type { DatabaseHandle } from './connect.js';
import type { Database } from './schema.js';

type Work<T> = (trx: Kysely<Database>) => Promise<T>;

export interface WriteOptions {
  /**
   * SQLite: the work writes with exactly one statement (its triggers included). SQLite undoes a failed statement
   * by itself (statement journal), so in a group such a work needs no savepoint of its own: a constraint error
   * (the email index, a foreign key) leaves the other works' writes as they were. Any other error fails the group.
   */
  oneStatement?: boolean;
}

/**
 * Runs `work` in a read-then-write transaction.
 * - PostgreSQL: an ordinary transaction; `work` locks the rows it decides on (`SELECT ... FOR UPDATE`), so
 *   writers of the same rows from any process run one after the other.
 * - SQLite: `BEGIN IMMEDIATE` takes the database write lock up front (waiting up to busy_timeout), so a
 *   read-then-write never races another connection or process. Works that arrive in the same turn of the event
 *   loop are committed together (group commit, see {@link SqliteWriteQueue}).
 * A throw rolls back everything `work` did, and nothing else; the promise settles only after the commit.
 */
export async function writeTransaction<T>(handle: DatabaseHandle, work: Work<T>, options: WriteOptions = {}): Promise<T> {
  // Already inside one (an audited change, audit/audit-log.ts): the work joins it.
  if (handle.inTransaction) return work(handle.db);
  if (handle.dialect === 'postgres') {
    return handle.db.transaction().execute(async (trx: Transaction<Database>) => {
      // A traced request's changes carry its trace context into the outbox (migration 011).
      const trace = captureTraceContext();
      if (trace !== undefined) await sql`select set_config(${POSTGRES_TRACE_SETTING}, ${trace}, true)`.execute(trx);
      return work(trx);
    });
  }
  return writeQueueOf(handle).run(work, options.oneStatement === true);
}

/**
 * SQLite only: `statement` runs one writing statement synchronously on the write connection (`handle.writeRun`),
 * inside the group commit, as a `oneStatement` work does. A group made of such works only runs start to finish in
 * one turn, on the connection itself: `BEGIN IMMEDIATE`, the statements, `COMMIT`, without Kysely's promises per
 * statement and per work. Same outcome as `writeTransaction(handle, async () => statement(), { oneStatement: true })`.
 */
export function writeStatement<T>(handle: DatabaseHandle, statement: () => T): Promise<T> {
  if (handle.inTransaction || handle.dialect !== 'sqlite') return writeTransaction(handle, async () => statement(), { oneStatement: true });
  return writeQueueOf(handle).runStatement(statement);
}

/** How many works went through how many SQLite transactions (for tests and diagnostics). */
export interface WriteQueueStats {
  works: number;
  transactions: number;
}

export function writeQueueStats(handle: DatabaseHandle): WriteQueueStats {
  return { ...writeQueueOf(handle).stats };
}

const queues = new WeakMap<DatabaseHandle['db'], SqliteWriteQueue>();

function writeQueueOf(handle: DatabaseHandle): SqliteWriteQueue {
  let queue = queues.get(handle.db);
  if (!queue) {
    queue = new SqliteWriteQueue(handle);
    queues.set(handle.db, queue);
  }
  return queue;
}

const BEGIN_SQL = 'begin immediate';
const COMMIT_SQL = 'commit';
const ROLLBACK_SQL = 'rollback';
const BEGIN = CompiledQuery.raw(BEGIN_SQL);
const COMMIT = CompiledQuery.raw(COMMIT_SQL);
const ROLLBACK = CompiledQuery.raw(ROLLBACK_SQL);
const NO_PARAMETERS: readonly unknown[] = [];
const SAVEPOINT = CompiledQuery.raw('savepoint group_item');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to group_item');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release group_item');

/** Works per transaction at most, so one transaction never holds the write lock for long. */
const MAX_GROUP = 64;

interface Pending {
  work: Work<unknown>;
  /** Writes with one statement: no savepoint needed (see {@link WriteOptions}). */
  oneStatement: boolean;
  /** Queued by {@link writeStatement}: the statement itself, run synchronously (`work` wraps it for mixed groups). */
  statement: (() => unknown) | undefined;
  /** The traceparent of the request that queued it, for the outbox trigger (migration 011). */
  trace: string | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for SQLite. A commit (WAL append, lock release) costs about as much as the create it commits
 * (profiled: ~40% of a create's database time). Works that arrive in the same turn of the event loop share one
 * transaction: each in its own savepoint, so a work that throws (a duplicate email, the plan limit) undoes only
 * its own writes, and each sees the writes of the works before it, exactly as if they had run one after the other.
 * A lone work, or one that writes with one statement (`oneStatement`), runs without a savepoint. Nobody hears "done" before the commit.
 */
class SqliteWriteQueue {
  readonly stats: WriteQueueStats = { works: 0, transactions: 0 };
  #pending: Pending[] = [];
  #draining = false;
  #scheduled = false;

  constructor(private readonly handle: DatabaseHandle) {}

  run<T>(work: Work<T>, oneStatement: boolean): Promise<T> {
    return this.#enqueue(bindToCurrentContext(work), oneStatement, undefined);
  }

  runStatement<T>(statement: () => T): Promise<T> {
    const bound = bindToCurrentContext(statement);
    return this.#enqueue(async () => bound(), true, bound);
  }

  #enqueue<T>(work: Work<unknown>, oneStatement: boolean, statement: (() => unknown) | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, oneStatement, statement, trace: captureTraceContext(), resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#draining || this.#scheduled) return;
    // better-sqlite3 is synchronous: a transaction runs start to finish in one turn of the event loop, so no
    // other request could ever queue behind it. Starting it after this turn's I/O callbacks instead lets every
    // request that arrived in the same turn join it (a few microseconds later, no timer).
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#pending.length > 0) {
        const group = this.#pending.splice(0, MAX_GROUP);
        const outcomes = this.#canCommitNow(group) ? this.#commitStatements(group) : await this.#commitGroup(group).catch((error: unknown) =>
          group.map((): Outcome => ({ ok: false, error })),
        );
        group.forEach(({ resolve, reject }, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) resolve(outcome.value);
          else reject(outcome.error);
        });
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * Every work is a synchronous statement and the write connection has no transaction open (Kysely's mutex holds
   * it only across a transaction's awaits; better-sqlite3 runs anything else start to finish): the group can run
   * on it in this turn, nothing can interleave.
   */
  #canCommitNow(group: Pending[]): boolean {
    const { writeRun, writeInTransaction } = this.handle;
    if (!writeRun || !writeInTransaction || writeInTransaction()) return false;
    for (const { statement } of group) if (statement === undefined) return false;
    return true;
  }

  /** {@link #commitGroup} for a group of synchronous statements, in one turn; the same outcomes. */
  #commitStatements(group: Pending[]): Outcome[] {
    const writeRun = this.handle.writeRun!;
    try {
      writeRun(BEGIN_SQL, NO_PARAMETERS);
    } catch (error) {
      return group.map((): Outcome => ({ ok: false, error }));
    }
    this.stats.transactions++;
    this.stats.works += group.length;
    const outcomes: Outcome[] = [];
    try {
      for (const { statement, trace } of group) {
        try {
          outcomes.push({ ok: true, value: withTraceContextSync(trace, statement!) });
        } catch (error) {
          outcomes.push(constraintOutcome(error));
        }
      }
      writeRun(COMMIT_SQL, NO_PARAMETERS);
    } catch (error) {
      try {
        if (this.handle.writeInTransaction!()) writeRun(ROLLBACK_SQL, NO_PARAMETERS);
      } catch {
        // Already rolled back by SQLite (I/O error, disk full): nothing of the group is committed either way.
      }
      return group.map((): Outcome => ({ ok: false, error }));
    }
    return outcomes;
  }

  /** One transaction for the group; throws (failing the whole group) only if it cannot begin or commit. */
  #commitGroup(group: Pending[]): Promise<Outcome[]> {
    return this.handle.db.connection().execute(async (conn) => {
      await conn.executeQuery(BEGIN);
      this.stats.transactions++;
      this.stats.works += group.length;
      let outcomes: Outcome[];
      try {
        if (group.length === 1) {
          // Alone: the transaction is the work's; a throw rolls it back below.
          const [{ work, trace }] = group as [Pending];
          outcomes = [{ ok: true, value: await withTraceContext(trace, () => work(conn)) }];
        } else {
          outcomes = [];
          for (const { work, oneStatement, trace } of group) {
            outcomes.push(await withTraceContext(trace, () => (oneStatement ? oneStatementOutcome(conn, work) : this.#inSavepoint(conn, work))));
          }
        }
        await conn.executeQuery(COMMIT);
      } catch (error) {
        await conn.executeQuery(ROLLBACK).catch(() => {});
        if (group.length === 1) return [{ ok: false, error }];
        throw error;
      }
      return outcomes;
    });
  }

  async #inSavepoint(conn: Kysely<Database>, work: Work<unknown>): Promise<Outcome> {
    await conn.executeQuery(SAVEPOINT);
    try {
      const value = await work(conn);
      await conn.executeQuery(RELEASE_SAVEPOINT);
      return { ok: true, value };
    } catch (error) {
      // If SQLite already rolled the whole transaction back (disk full, I/O error), the savepoint is gone: then
      // the group fails, with this work's error.
      await conn.executeQuery(ROLLBACK_TO_SAVEPOINT).catch(() => Promise.reject(error));
      await conn.executeQuery(RELEASE_SAVEPOINT);
      return { ok: false, error };
    }
  }
}

/** A one-statement work inside a group, run through Kysely: its outcome as {@link constraintOutcome} decides. */
async function oneStatementOutcome(conn: Kysely<Database>, work: Work<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await work(conn) };
  } catch (error) {
    return constraintOutcome(error);
  }
}

/**
 * The outcome of a one-statement work that threw: a constraint error fails only this work (SQLite undid the
 * statement and its triggers, the transaction goes on); any other error (I/O, disk full: SQLite may have rolled the
 * whole transaction back) is thrown again to fail the group, so nothing of it is committed.
 */
function constraintOutcome(error: unknown): Outcome {
  if (isConstraintError(error)) return { ok: false, error };
  throw error;
}

/** better-sqlite3's error for a violated constraint (UNIQUE, PRIMARY KEY, FOREIGN KEY, CHECK, NOT NULL). */
function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}
