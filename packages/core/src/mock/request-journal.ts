import type { OperationId } from '../http/operations.js';
import { holdBody, shownBody, type HeldBody } from './journal-body.js';

export { JOURNAL_BODY_LIMIT_BYTES, journalBody } from './journal-body.js';
export { journalHeader, KEY_PREFIX_LENGTH, REDACTED } from './journal-headers.js';

/** How many requests a mock's journal keeps by default; older ones are dropped and counted. */
export const DEFAULT_JOURNAL_SIZE = 1000;

/**
 * The memory a journal may hold, counted by {@link journalEntryBytes}: 16 MiB. The entry count (`journalSize`)
 * is a limit within it; whichever is reached first drops the oldest entries.
 */
export const DEFAULT_JOURNAL_MEMORY_BYTES = 16 * 1024 * 1024;

/** One request a mock received, as its journal keeps it. */
export interface JournalEntry {
  /** ISO 8601: when it arrived, on the mock's clock. */
  at: string;
  method: string;
  /** The path as received, without the query string. */
  path: string;
  /** The raw query string without `?` (empty when none). */
  query: string;
  /** The operation of openapi.yaml it calls, or null for a path or method the API does not have. */
  operation: OperationId | null;
  /**
   * Request headers, names lower-case; API keys (`X-API-Key`, `Authorization: Bearer sk_…`) shown only by their
   * first 12 characters; `Cookie`, other `Authorization` schemes and the control token as `[redacted]`.
   */
  headers: Record<string, string>;
  /**
   * The body: parsed JSON, else its text; at most its first 8 KiB (then text, and `bodyTruncated`); null when
   * there was none, and always for GET, HEAD and DELETE (the API never reads their body).
   */
  body: unknown;
  /** Whether `body` is only the first 8 KiB of what was sent. */
  bodyTruncated: boolean;
  /** The status answered; null when a forced network error dropped the connection. */
  status: number | null;
  /** Whether a forced response (queued or `Prefer`) answered instead of the mock's rules. */
  forced: boolean;
  /** The answer's `X-Request-Id`. */
  requestId: string | null;
  /** The seller the request's key belongs to, or null (no key, or one the mock does not know). */
  seller: string | null;
}

/** What a host records: an entry with the body as received (the journal decides what of it to keep). */
export type JournalRecord = Omit<JournalEntry, 'body' | 'bodyTruncated'> & { body: Uint8Array | null };

/** Which entries to read; every given field must match. */
export interface JournalFilter {
  operation?: OperationId | undefined;
  /** Case-insensitive. */
  method?: string | undefined;
  status?: number | undefined;
  seller?: string | undefined;
  /** At most this many, the newest of the matching ones (still oldest first). */
  limit?: number | undefined;
}

/** The matching entries, oldest first, and how many requests were dropped from a full journal. */
export interface JournalPage {
  data: JournalEntry[];
  dropped: number;
}

/** How much a journal holds now, by its own count, and its bounds. */
export interface JournalUsage {
  entries: number;
  bytes: number;
  maxEntries: number;
  maxBytes: number;
}

/** A bounded record of the requests a mock received. */
export interface RequestJournal {
  record(entry: JournalRecord): void;
  read(filter?: JournalFilter): JournalPage;
  clear(): void;
  usage(): JournalUsage;
}

type Held = { entry: Omit<JournalEntry, 'body' | 'bodyTruncated'>; body: HeldBody | null; bytes: number };

/** What an entry costs besides its strings: the objects and their slots (a generous estimate). */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * The bytes an entry is counted at: 2 per character of every string it holds (V8's wider string form, so the
 * count is an upper bound) plus a fixed overhead.
 *
 * @example
 * journalEntryBytes(entry, held); // 512 + 2 × (characters of path, query, headers, body, …)
 */
export function journalEntryBytes(entry: Omit<JournalEntry, 'body' | 'bodyTruncated'>, body: HeldBody | null): number {
  let chars = entry.at.length + entry.method.length + entry.path.length + entry.query.length;
  chars += (entry.operation?.length ?? 0) + (entry.requestId?.length ?? 0) + (entry.seller?.length ?? 0);
  for (const [name, value] of Object.entries(entry.headers)) chars += name.length + value.length;
  return ENTRY_OVERHEAD_BYTES + 2 * (chars + (body?.text.length ?? 0));
}

/**
 * A journal keeping the newest `size` requests within `maxBytes` (as {@link journalEntryBytes} counts them);
 * older ones are dropped and counted.
 *
 * @example
 * const journal = createRequestJournal(1000);
 * journal.read({ operation: 'createCustomer' }); // { data: [...], dropped: 0 }
 */
export function createRequestJournal(size = DEFAULT_JOURNAL_SIZE, maxBytes = DEFAULT_JOURNAL_MEMORY_BYTES): RequestJournal {
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`the journal size must be a whole number, 1 or more; got ${size}`);
  if (!(Number.isInteger(maxBytes) && maxBytes >= 1)) throw new RangeError(`the journal memory must be a whole number of bytes, 1 or more; got ${maxBytes}`);
  // A queue: `held[head]` is the oldest kept entry; the dropped slots before it are cut off in batches (O(1) per record).
  let held: (Held | undefined)[] = [];
  let head = 0;
  let bytes = 0;
  let dropped = 0;
  const kept = () => held.slice(head) as Held[];
  return {
    record({ body: raw, ...entry }) {
      const body = holdBody(entry.method, raw);
      const cost = journalEntryBytes(entry, body);
      held.push({ entry, body, bytes: cost });
      bytes += cost;
      while (held.length - head > size || bytes > maxBytes) {
        bytes -= held[head]!.bytes;
        held[head++] = undefined;
        dropped++;
      }
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator,BlockStatement: when to cut the dropped slots off is memory only; `held[head…]` stays the same queue, so read and usage answer alike
      if (head > 64 && head * 2 > held.length) {
        held = held.slice(head);
        head = 0;
      }
    },
    read(filter = {}) {
      const method = filter.method?.toUpperCase();
      const matching = kept().filter(
        ({ entry }) =>
          (filter.operation === undefined || entry.operation === filter.operation) &&
          (method === undefined || entry.method === method) &&
          (filter.status === undefined || entry.status === filter.status) &&
          (filter.seller === undefined || entry.seller === filter.seller),
      );
      const chosen = filter.limit === undefined ? matching : matching.slice(-filter.limit);
      // Fresh objects on every read: callers may change what they get.
      const data = chosen.map(({ entry, body }) => ({ ...entry, headers: { ...entry.headers }, body: shownBody(body), bodyTruncated: body?.truncated ?? false }));
      return { data, dropped };
    },
    clear() {
      held = [];
      head = 0;
      bytes = 0;
      dropped = 0;
    },
    usage: () => ({ entries: held.length - head, bytes, maxEntries: size, maxBytes }),
  };
}
