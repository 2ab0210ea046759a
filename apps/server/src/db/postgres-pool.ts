import { createHash } from 'node:crypto';
import pg from 'pg';
import { describeStatement, type QueryObserver } from '../observability/query-observer.js';
import { typingErrors, type UnavailableKind } from './database-unavailable.js';
import { POSTGRES_SESSION_OPTIONS } from './postgres-timestamps.js';

/**
 * How long a request waits for a connection (a new one, or a free one of the pool) before it is told the database
 * is unavailable (503): a database that does not answer at all must not hold requests until the client gives up.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 2_000;

/**
 * A statement whose text starts with this comment runs as a named prepared statement of its connection, named by
 * a hash of its text: PostgreSQL parses and plans it once per connection and the text is sent once. For statements
 * of one fixed text that run inside Kysely's transactions, where `DatabaseHandle.prepared` (autocommit) cannot go:
 * the delivery claim's, whose parsing and planning were a third of PostgreSQL's CPU per attempt (issue 36).
 *
 * @example
 * await sql`${sql.raw(PREPARE_ONCE)}select ... where endpoint_id = any(${ids}::uuid[])`.execute(trx);
 */
export const PREPARE_ONCE = '/* prepare once */ ';

export interface PostgresPoolOptions {
  observer?: QueryObserver | undefined;
  /** Called once per error that means the database does not answer (a lost connection, a refused one...). */
  onUnavailable?: ((kind: UnavailableKind) => void) | undefined;
  /**
   * PostgreSQL's `statement_timeout` for every connection, in ms (0 or omitted: none). A statement it cancels fails
   * with 57014, which is a 503 with Retry-After (database-unavailable.ts, kind `timeout`).
   */
  statementTimeoutMs?: number | undefined;
}

/** A pg pool whose failures of availability come out as DatabaseUnavailableError, and that never crashes the process. */
export interface PostgresPool {
  /** The pool itself, for its counts. */
  raw: pg.Pool;
  /** A checked-out client (Kysely's PostgresDialect takes `{ connect, end }`); release it as pg-pool asks. */
  connect(): Promise<pg.PoolClient>;
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
  end(): Promise<void>;
}

/**
 * pg-pool listens for errors only on idle clients (it removes its listener on checkout), so a FATAL arriving between
 * two statements of a checked-out client (57P01 on a restart, a reset) was an unhandled 'error' event that ended the
 * process. Every client gets a listener of its own for life; a client that errored is no longer queryable, and
 * pg-pool discards such a client when it is released, so the next checkout opens a new connection.
 *
 * @example
 * const pool = createPostgresPool(url, 10, { onUnavailable: (kind) => metrics.databaseError(kind) });
 */
export function createPostgresPool(url: string, max: number, { observer, onUnavailable, statementTimeoutMs }: PostgresPoolOptions = {}): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: POSTGRES_SESSION_OPTIONS,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    // Sent with the connection's startup: no extra round trip. Migrations lift it for their own transaction.
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
  });
  const typed = typingErrors(onUnavailable);
  // An idle client losing its connection: pg-pool has already removed it.
  pool.on('error', typed);
  pool.on('connect', (client) => {
    preparingOnce(client);
    if (observer) observeClient(client, observer);
    // A checked-out client losing its connection: its statement (or the next) fails and it is discarded on release.
    client.on('error', typed);
    typeQueries(client, typed);
  });
  return {
    raw: pool,
    connect: () =>
      pool.connect().catch((error: unknown) => {
        throw typed(error);
      }),
    query: (config) =>
      pool.query(config).catch((error: unknown) => {
        throw typed(error);
      }),
    end: () => pool.end(),
  };
}

/** Names of the PREPARE_ONCE texts seen (a fixed set in the code; cleared if it ever grew past the bound). */
const onceNames = new Map<string, string>();
const ONCE_NAMES_LIMIT = 256;

function onceName(text: string): string {
  let name = onceNames.get(text);
  if (name === undefined) {
    if (onceNames.size >= ONCE_NAMES_LIMIT) onceNames.clear();
    name = `once_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    onceNames.set(text, name);
  }
  return name;
}

/** `client.query(text, values)` with a PREPARE_ONCE text becomes `client.query({ name, text, values })`. */
function preparingOnce(client: pg.PoolClient): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values, ...rest] = args;
    if (typeof text === 'string' && text.startsWith(PREPARE_ONCE) && (values === undefined || Array.isArray(values))) {
      return original({ name: onceName(text), text, values: values ?? [] }, ...rest);
    }
    return original(...args);
  };
}

/** The client's promise-form queries (Kysely's, ours) reject with the typed error; callback forms are pg-pool's own. */
function typeQueries(client: pg.PoolClient, typed: (error: unknown) => unknown): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = original(...args);
    if (typeof args[args.length - 1] === 'function' || !(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      throw typed(error);
    });
  };
}

/** A pg client whose every query is seen by `observer` (promise and callback forms, as Kysely and pool.query use them). */
function observeClient(client: pg.PoolClient, observer: QueryObserver): void {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    const end = observer({ system: 'postgresql', ...describeStatement(typeof first === 'string' ? first : (first?.text ?? '')) });
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        end(error ?? undefined);
        callback(error, result);
      };
      return original(...args);
    }
    const result = original(...args) as Promise<unknown>;
    result.then(() => end(), (error: unknown) => end(error));
    return result;
  };
}
