import type { JournalEntry, JournalFilter, OperationId } from '@customers-api/core';
import type { RequestBody } from './operation-types.js';

/**
 * One request the mock received, typed by its operation: `body` is the operation's documented request body
 * (as sent, so a body that is not JSON is its text), `unknown` for operations that take none.
 */
export type RequestEntry<Op extends OperationId | null = OperationId | null> = Op extends OperationId
  ? Omit<JournalEntry, 'operation' | 'body'> & {
      operation: Op;
      body: [RequestBody<Op>] extends [undefined] ? unknown : RequestBody<Op> | string | null;
    }
  : Omit<JournalEntry, 'operation'> & { operation: null };

/** Which requests `mock.requests()` returns; every given field must match. */
export interface RequestFilter<Op extends OperationId = OperationId> extends Omit<JournalFilter, 'operation'> {
  operation?: Op;
}

/** The mock's clock: set it, advance it, back to the start. */
export interface CustomersMockClock {
  /** The mock's time now. */
  now(): Date;
  /** Whether it stands still (after `set`, or with the `frozenAt` option). */
  readonly frozen: boolean;
  /** Sets the time and freezes it there; rejects with a RangeError for an instant before now. */
  set(date: Date | string): Promise<void>;
  /** Moves the time forward by `ms`; settles once the work that became due has run. */
  advance(ms: number): Promise<void>;
  /** Lets the time run on from now, without jumping back. */
  unfreeze(): void;
  /** Back to the start: the `frozenAt` option's instant, or the wall clock. */
  reset(): void;
}
