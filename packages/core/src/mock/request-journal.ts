import type { OperationId } from '../http/operations.js';

/** How many requests a mock's journal keeps by default; older ones are dropped and counted. */
export const DEFAULT_JOURNAL_SIZE = 1000;

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
  /** Request headers, names lower-case; API keys (`X-API-Key`, `Authorization`) shown only by their first 12 characters. */
  headers: Record<string, string>;
  /** The body: parsed JSON, else its text; null when there was none. */
  body: unknown;
  /** The status answered; null when a forced network error dropped the connection. */
  status: number | null;
  /** Whether a forced response (queued or `Prefer`) answered instead of the mock's rules. */
  forced: boolean;
  /** The answer's `X-Request-Id`. */
  requestId: string | null;
  /** The seller the request's key belongs to, or null (no key, or one the mock does not know). */
  seller: string | null;
}

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

/** A bounded record of the requests a mock received. */
export interface RequestJournal {
  record(entry: JournalEntry): void;
  read(filter?: JournalFilter): JournalPage;
  clear(): void;
}

/** Shown of an API key: its first 12 characters (`sk_live_` and four more), like the dashboard's prefix. */
export const KEY_PREFIX_LENGTH = 12;

/**
 * A journal keeping the newest `size` requests; older ones are dropped and counted.
 *
 * @example
 * const journal = createRequestJournal(1000);
 * journal.read({ operation: 'createCustomer' }); // { data: [...], dropped: 0 }
 */
export function createRequestJournal(size = DEFAULT_JOURNAL_SIZE): RequestJournal {
  if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`the journal size must be a whole number, 1 or more; got ${size}`);
  let entries: JournalEntry[] = [];
  let dropped = 0;
  return {
    record(entry) {
      entries.push(entry);
      // Trimmed in batches so that recording stays O(1) per request.
      if (entries.length >= 2 * size) {
        dropped += entries.length - size;
        entries = entries.slice(-size);
      }
    },
    read(filter = {}) {
      const kept = entries.length > size ? entries.slice(-size) : entries;
      const method = filter.method?.toUpperCase();
      const matching = kept.filter(
        (entry) =>
          (filter.operation === undefined || entry.operation === filter.operation) &&
          (method === undefined || entry.method === method) &&
          (filter.status === undefined || entry.status === filter.status) &&
          (filter.seller === undefined || entry.seller === filter.seller),
      );
      const data = filter.limit === undefined ? matching : matching.slice(-filter.limit);
      return { data: structuredClone(data), dropped: dropped + (entries.length - kept.length) };
    },
    clear() {
      entries = [];
      dropped = 0;
    },
  };
}

/**
 * A header value as the journal shows it: API keys cut to their first 12 characters, followed by `…`.
 *
 * @example
 * journalHeader('x-api-key', 'sk_live_abcdefgh…'); // "sk_live_abcd…"
 * journalHeader('authorization', 'Bearer sk_live_abcdefgh…'); // "Bearer sk_live_abcd…"
 */
export function journalHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'x-api-key') return prefixOf(value);
  if (lower === 'authorization') {
    const [scheme, ...rest] = value.split(' ');
    return rest.length > 0 ? `${scheme} ${prefixOf(rest.join(' '))}` : prefixOf(value);
  }
  return value;
}

function prefixOf(secret: string): string {
  return secret.length <= KEY_PREFIX_LENGTH ? secret : `${secret.slice(0, KEY_PREFIX_LENGTH)}…`;
}

/**
 * A request body as the journal shows it: the parsed JSON, else the text; null when empty.
 *
 * @example
 * journalBody(new TextEncoder().encode('{"a":1}')); // { a: 1 }
 */
export function journalBody(bytes: Uint8Array | null): unknown {
  if (!bytes || bytes.byteLength === 0) return null;
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
