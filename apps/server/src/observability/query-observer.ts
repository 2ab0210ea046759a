// One place where every database statement of the server is seen, whichever path ran it (Kysely, the SQLite
// statement cache, the PostgreSQL prepared statements): metrics time it, tracing makes it a span. Nothing
// instruments better-sqlite3 or Kysely for OpenTelemetry, and the hot paths bypass Kysely anyway, so the driver
// level is the one place that sees them all.

/** What a statement is, in bounded terms: never its parameters. */
export interface QueryInfo {
  /** `sqlite` or `postgresql` (OpenTelemetry's `db.system.name`). */
  system: 'sqlite' | 'postgresql';
  /** SELECT, INSERT, UPDATE, DELETE or OTHER (`db.operation.name`). */
  operation: string;
}

/**
 * Called as a statement starts; the function it returns is called once it has finished (with its error, if any).
 * `timer`, when present, is all the observer does in a cheaper form a caller may use instead (metrics: only the
 * duration): asked once per prepared statement, it returns what takes each run's seconds, so a run allocates no
 * closure and looks nothing up.
 */
export type QueryObserver = ((query: QueryInfo) => (error?: unknown) => void) & {
  timer?: (query: QueryInfo) => (seconds: number) => void;
};

const OPERATIONS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE']);

/** The statement's operation from its first keyword (one of a fixed few, so a label stays bounded). */
export function operationOf(sql: string): string {
  const match = /^\s*([a-zA-Z]+)/.exec(sql);
  const keyword = match ? match[1]!.toUpperCase() : '';
  return OPERATIONS.has(keyword) ? keyword : 'OTHER';
}

/** Several observers as one (metrics and tracing both watching); undefined when none. */
export function combineObservers(...observers: (QueryObserver | undefined)[]): QueryObserver | undefined {
  const present = observers.filter((observer): observer is QueryObserver => observer !== undefined);
  if (present.length <= 1) return present[0];
  return (query) => {
    const ends = present.map((observer) => observer(query));
    return (error) => {
      for (const end of ends) end(error);
    };
  };
}
