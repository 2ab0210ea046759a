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
  /** The table the statement reads or writes first (`db.collection.name`); empty when none is named plainly. */
  collection: string;
}

/** A statement's bounded description: its operation and table, never its parameters. */
export type StatementInfo = Pick<QueryInfo, 'operation' | 'collection'>;

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

// The first table after FROM / INTO / UPDATE, quoted or not (a function call, `from f(...)`, is no table): our own
// schema's names, so a label stays bounded.
const TABLE = /\b(?:from|into|update)\s+"?([a-z_][a-z0-9_]{0,62})"?(?=[\s,;]|$)/i;
const described = new Map<string, StatementInfo>();
const DESCRIBED_MAX = 2_000;

/**
 * The statement's operation and first table, remembered per SQL text (the server runs a fixed few texts, and a
 * prepared statement's text is one string, so the lookup is cheap); a statement that reads no table plainly
 * (`select 1`, `begin`) has an empty collection.
 *
 * @example
 * describeStatement('select "id" from "customers" where ...'); // { operation: 'SELECT', collection: 'customers' }
 */
export function describeStatement(sql: string): StatementInfo {
  let info = described.get(sql);
  if (!info) {
    const operation = operationOf(sql);
    const collection = operation === 'OTHER' ? '' : (TABLE.exec(sql)?.[1]?.toLowerCase() ?? '');
    info = { operation, collection };
    if (described.size >= DESCRIBED_MAX) described.clear();
    described.set(sql, info);
  }
  return info;
}

/** A span's name for a statement, as OTel's database conventions say: `{operation} {table}`, or the operation. */
export function statementSpanName({ operation, collection }: StatementInfo): string {
  return collection ? `${operation} ${collection}` : operation;
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
