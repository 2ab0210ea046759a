import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/connect.js';
import type { RequestLogFile } from './request-log-file.js';
import { insertRequestLogs, pruneRequestLogs, requestLogValues, resolveKeyNames, type RequestLogEntry } from './request-log-store.js';

/** Entries waiting to be written at most, in all and of one seller: beyond, they are counted and dropped. */
export const REQUEST_LOG_BUFFER_LIMIT = 10_000;
export const REQUEST_LOG_SELLER_BUFFER_LIMIT = 1_000;
/** How often the buffer is written: a request shows in the dashboard within about this long (documented: 2 s). */
export const REQUEST_LOG_FLUSH_MS = 500;
/** The most entries one flush writes (a few INSERT statements in one transaction). */
export const REQUEST_LOG_FLUSH_BATCH = 2_000;
/**
 * Entries waiting that start a flush before the timer does. Under load a row then waits milliseconds, not half a
 * second: rows that wait 500 ms outlive V8's young generation, and the old generation they die in grew the
 * process by about 20 MB at 8,000 requests a second (issue 39's peak RSS row).
 */
export const REQUEST_LOG_FLUSH_AT = 256;
/** How often old rows (and rows beyond a seller's share) are pruned. */
export const REQUEST_LOG_PRUNE_MS = 300_000;
/** Keys whose name and prefix are remembered at most (then forgotten all at once and read again). */
const KEY_CACHE_LIMIT = 10_000;

export type DropReason = 'buffer_full' | 'seller_full' | 'write_failed';

export interface RequestLogRecorderOptions {
  /** The main database: keys' names are read there, and rows written there unless `file` is given. */
  database: DatabaseHandle;
  /** A SQLite database file's request log file (request-log-file.ts): rows are written and pruned there. */
  file?: RequestLogFile | undefined;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Counts entries not recorded (observability/metrics.ts `requestLogsDropped`). */
  dropped?: (reason: DropReason, count: number) => void;
  bufferLimit?: number;
  sellerBufferLimit?: number;
  flushMs?: number;
  flushAt?: number;
  pruneMs?: number;
}

export interface RequestLogRecorder {
  /** Keeps one entry for the next flush, or counts it as dropped; never waits and never throws. */
  record(entry: RequestLogEntry): void;
  /** Writes everything waiting now (tests and shutdown); resolves when it is written or dropped. */
  flush(): Promise<void>;
  /** Prunes now (the timer does it every {@link REQUEST_LOG_PRUNE_MS}). */
  prune(): Promise<number>;
  /** Stops the timers after a last flush. */
  close(): Promise<void>;
  /** Entries waiting to be written. */
  readonly waiting: number;
}

/**
 * The request log's writer, off the request's path: `record` pushes onto an in-memory buffer bounded in all and
 * per seller (a noisy seller cannot crowd the others out of it), a timer (or {@link REQUEST_LOG_FLUSH_AT} entries
 * waiting) writes it in batched INSERTs in one transaction. Whatever does not fit, or a batch the database refuses,
 * is counted in the metric, never retried and never waited for: request logs are for a seller's eyes, not a ledger.
 *
 * @example
 * const recorder = createRequestLogRecorder({ database, log: app.log, now: () => new Date() });
 * recorder.record(entry); // written within REQUEST_LOG_FLUSH_MS
 */
export function createRequestLogRecorder(options: RequestLogRecorderOptions): RequestLogRecorder {
  const { database, file, log, now } = options;
  const write = async (batch: RequestLogEntry[]): Promise<void> => {
    if (!file) return insertRequestLogs(database, batch, keys);
    await resolveKeyNames(database, batch, keys);
    await file.write(batch.map((entry) => requestLogValues(entry, keys)));
  };
  const bufferLimit = options.bufferLimit ?? REQUEST_LOG_BUFFER_LIMIT;
  const sellerLimit = options.sellerBufferLimit ?? REQUEST_LOG_SELLER_BUFFER_LIMIT;
  const flushAt = options.flushAt ?? REQUEST_LOG_FLUSH_AT;
  const dropped = options.dropped ?? (() => {});
  let buffer: RequestLogEntry[] = [];
  const perSeller = new Map<string, number>();
  const keys = new Map<string, { name: string; prefix: string } | null>();
  // Sellers written since the last prune: only they can have grown past their share.
  const written = new Set<string>();
  let flushing: Promise<void> | undefined;
  let pruning: Promise<number> | undefined;

  const writeBatch = async (): Promise<void> => {
    while (buffer.length > 0) {
      const batch = buffer.length <= REQUEST_LOG_FLUSH_BATCH ? buffer : buffer.slice(0, REQUEST_LOG_FLUSH_BATCH);
      buffer = batch === buffer ? [] : buffer.slice(REQUEST_LOG_FLUSH_BATCH);
      for (const entry of batch) {
        const count = perSeller.get(entry.sellerId)! - 1;
        if (count === 0) perSeller.delete(entry.sellerId);
        else perSeller.set(entry.sellerId, count);
      }
      if (keys.size > KEY_CACHE_LIMIT) keys.clear();
      try {
        await write(batch);
        for (const entry of batch) written.add(entry.sellerId);
      } catch (error) {
        dropped('write_failed', batch.length);
        log.warn({ err: error, rows: batch.length }, 'request logs: could not write a batch; its rows are dropped');
      }
    }
  };
  const flush = (): Promise<void> => {
    flushing ??= writeBatch().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };
  const prune = (): Promise<number> => {
    pruning ??= (async () => {
      const sellers = [...written];
      written.clear();
      try {
        return await pruneRequestLogs(file?.handle ?? database, { now: now(), sellers });
      } catch (error) {
        log.warn({ err: error }, 'request logs: could not prune');
        return 0;
      }
    })().finally(() => {
      pruning = undefined;
    });
    return pruning;
  };

  const flushTimer = setInterval(() => void flush(), options.flushMs ?? REQUEST_LOG_FLUSH_MS);
  flushTimer.unref();
  const pruneTimer = setInterval(() => void prune(), options.pruneMs ?? REQUEST_LOG_PRUNE_MS);
  pruneTimer.unref();

  return {
    record(entry) {
      if (buffer.length >= bufferLimit) return dropped('buffer_full', 1);
      const count = perSeller.get(entry.sellerId) ?? 0;
      if (count >= sellerLimit) return dropped('seller_full', 1);
      perSeller.set(entry.sellerId, count + 1);
      buffer.push(entry);
      // A flush under way writes these too: it takes batches until the buffer is empty.
      if (buffer.length >= flushAt && !flushing) void flush();
    },
    flush: async () => {
      // A flush under way took the buffer as it was then: wait for it, then write what came since.
      if (flushing) await flushing;
      await flush();
    },
    prune,
    async close() {
      clearInterval(flushTimer);
      clearInterval(pruneTimer);
      await this.flush();
      if (pruning) await pruning;
    },
    get waiting() {
      return buffer.length;
    },
  };
}
