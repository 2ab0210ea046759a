// The database not answering is a condition of the service, not a bug: the component that owns the connection
// (connect.ts, postgres-pool.ts) turns its driver's errors into this one typed error, and the HTTP layer answers
// it with core's 503 (to-api-error.ts). Anything not listed here stays a fault (500, logged with its stack).

/** Why the database does not answer, as the `kind` label of `customers_database_errors_total`. */
export type UnavailableKind = 'refused' | 'lost' | 'shutting_down' | 'starting_up' | 'timeout' | 'busy' | 'io';

export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  constructor(
    readonly kind: UnavailableKind,
    cause?: unknown,
  ) {
    // The driver's words too (e.g. `connect ECONNREFUSED 127.0.0.1:5432`, never a password): the CLI prints this.
    super(`the database is unavailable (${kind})${cause instanceof Error && cause.message ? `: ${cause.message}` : ''}`, { cause });
  }
}

/** Network errors of a connection that could not be made, or broke. */
const NETWORK: Record<string, UnavailableKind> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  EAI_AGAIN: 'refused',
  ECONNRESET: 'lost',
  EPIPE: 'lost',
  ETIMEDOUT: 'timeout',
};

/** PostgreSQL SQLSTATEs of a server going away, not up yet, or a statement cut off by a timeout. */
const POSTGRES: Record<string, UnavailableKind> = {
  '57P01': 'shutting_down', // admin_shutdown: a fast or smart shutdown ended the session
  '57P02': 'shutting_down', // crash_shutdown
  '57P03': 'starting_up', // cannot_connect_now: starting up, shutting down or in recovery
  '57014': 'timeout', // query_canceled: statement_timeout
  '25P03': 'timeout', // idle_in_transaction_session_timeout
  '53300': 'busy', // too_many_connections
};

/** node-postgres reports a dead or timed-out connection by message only. */
const PG_MESSAGES: [RegExp, UnavailableKind][] = [
  [/timeout exceeded when trying to connect|connection timeout|Query read timeout/i, 'timeout'],
  [/Connection terminated|not queryable|Client was closed|connection error/i, 'lost'],
];

/**
 * The kind of unavailability `error` means, or undefined for any other error (a bug, a constraint, bad SQL).
 *
 * @example
 * unavailableKind(Object.assign(new Error('terminating connection'), { code: '57P01' })); // 'shutting_down'
 */
export function unavailableKind(error: unknown): UnavailableKind | undefined {
  if (error instanceof DatabaseUnavailableError) return error.kind;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  const kind = NETWORK[code] ?? POSTGRES[code] ?? sqliteKind(code);
  if (kind) return kind;
  // The class of connection exceptions (08000, 08003, 08006...).
  if (/^08[0-9A-Z]{3}$/.test(code)) return 'lost';
  const message = error instanceof Error ? error.message : '';
  return PG_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

/** SQLITE_BUSY past the busy timeout (and its extended codes), and the disk failing under the file. */
function sqliteKind(code: string): UnavailableKind | undefined {
  if (!code.startsWith('SQLITE_')) return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code.startsWith('SQLITE_IOERR') || code === 'SQLITE_FULL' || code.startsWith('SQLITE_CANTOPEN')) return 'io';
  return undefined;
}

/** `error` as a DatabaseUnavailableError when it means one (the original kept as its cause), else undefined. */
export function asDatabaseUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error;
  const kind = unavailableKind(error);
  return kind === undefined ? undefined : new DatabaseUnavailableError(kind, error);
}

/**
 * What a connection's owner passes its errors through: the typed error when one means unavailability (reported
 * to `onUnavailable` once, when first typed), any other error as it was.
 *
 * @example
 * const typed = typingErrors((kind) => metrics.databaseError(kind)); try { ... } catch (e) { throw typed(e); }
 */
export function typingErrors(onUnavailable?: (kind: UnavailableKind) => void): (error: unknown) => unknown {
  return (error) => {
    if (error instanceof DatabaseUnavailableError) return error;
    const unavailable = asDatabaseUnavailable(error);
    if (!unavailable) return error;
    onUnavailable?.(unavailable.kind);
    return unavailable;
  };
}
