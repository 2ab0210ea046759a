// The trace context of the request that is writing, for the database: the outbox rows written by triggers keep
// it (migration 011), so a webhook delivery's span can link back to the request that made the change. Tracing
// (tracing.ts) installs the source; without tracing the source answers undefined and nothing else runs.

/** A W3C traceparent: version 00, trace id, parent (span) id, flags. Nothing else is ever handed to SQL. */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

let source: () => string | undefined = () => undefined;
/** Set while SQLite's write queue runs one request's work on behalf of the whole group (write-transaction.ts). */
let pinned: { value: string | undefined } | undefined;

/** Installs where the current request's traceparent comes from (tracing.ts); undefined turns it off again. */
export function setTraceContextSource(next: (() => string | undefined) | undefined): void {
  source = next ?? (() => undefined);
}

/** The traceparent of the request running now, if it is traced. */
export function captureTraceContext(): string | undefined {
  const value = source();
  return value !== undefined && TRACEPARENT.test(value) ? value : undefined;
}

/** What the database should store with a change written now: the pinned request's, else the running one's. */
export function currentTraceContext(): string | undefined {
  return pinned ? pinned.value : captureTraceContext();
}

/** Runs `work` as if `value`'s request were running (SQLite's group commit runs many requests' works in one turn). */
export async function withTraceContext<T>(value: string | undefined, work: () => Promise<T>): Promise<T> {
  pinned = { value };
  try {
    return await work();
  } finally {
    pinned = undefined;
  }
}

/** {@link withTraceContext} for a synchronous work (a statement of SQLite's group commit). */
export function withTraceContextSync<T>(value: string | undefined, work: () => T): T {
  pinned = { value };
  try {
    return work();
  } finally {
    pinned = undefined;
  }
}

type Binder = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A) => R;
let binder: Binder = (fn) => fn;

/** Installs how a function is bound to the running request's trace context (tracing.ts); undefined: unbound. */
export function setContextBinder(next: Binder | undefined): void {
  binder = next ?? ((fn) => fn);
}

/**
 * `fn`, to run later in the trace context of now (SQLite's group commit runs queued works in another request's
 * turn: their database spans still belong to their own request). `fn` itself when tracing is off.
 */
export function bindToCurrentContext<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return binder(fn);
}

let detacher: <R>(fn: () => R) => R = (fn) => fn();

/** Installs how work is run outside any trace (tracing.ts); undefined: as is. */
export function setDetacher(next: (<R>(fn: () => R) => R) | undefined): void {
  detacher = next ?? ((fn) => fn());
}

/**
 * Runs `fn` outside the running request's trace: background work it starts (the delivery worker's look for due
 * deliveries, and the timers it sets) must not become spans of a request that has already answered.
 */
export function runDetached<R>(fn: () => R): R {
  return detacher(fn);
}

/** The setting PostgreSQL's column default reads (migration 011). */
export const POSTGRES_TRACE_SETTING = 'customers.trace_context';

/** SQLite: the function the outbox trigger calls (migration 011). */
export const SQLITE_TRACE_FUNCTION = 'customers_trace_context';
