import type { CustomerEvent, CustomerEventType } from '@customers-api/core';

/** The event of one type: `EventOf<'customer.updated'>` is `CustomerUpdatedEvent`. */
export type EventOf<T extends CustomerEventType> = Extract<CustomerEvent, { type: T }>;

export interface NextEventOptions {
  /** How long to wait for a matching event before rejecting; default {@link DEFAULT_EVENT_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** How long `nextEvent` waits by default. An event is emitted before its request is answered, so this is ample. */
export const DEFAULT_EVENT_TIMEOUT_MS = 2000;

/** Events kept for `nextEvent` and `events()`; older untaken ones are dropped (a test reads the newest). */
const KEPT_EVENTS = 1000;

interface Entry {
  event: CustomerEvent;
  taken: boolean;
}

interface Waiter {
  matches: (event: CustomerEvent) => boolean;
  resolve: (event: CustomerEvent) => void;
}

/** The mock's events since it started or was last reset, and the waits for them. */
export interface EventLog {
  /** Takes one event (the mock's `onEvent` listener). */
  record(event: CustomerEvent): void;
  /** Every event kept, oldest first, taken or not (copies). */
  events(): CustomerEvent[];
  /**
   * The oldest event not yet taken that matches, else the next one emitted: taken once resolved, so two waits
   * never get the same event. Rejects after the timeout.
   */
  next(matches: (event: CustomerEvent) => boolean, description: string, options?: NextEventOptions): Promise<CustomerEvent>;
  /** Forgets the events kept; waits already under way go on waiting. */
  clear(): void;
}

/**
 * A mailbox of change events for tests: an event emitted before the test asks for it is kept until a
 * `next` takes it, so `await client.customers.update(...)` then `await log.next(...)` cannot miss it.
 *
 * @example
 * const log = createEventLog();
 * api.onEvent(log.record);
 * const updated = await log.next((event) => event.type === 'customer.updated', 'customer.updated');
 */
export function createEventLog(): EventLog {
  let entries: Entry[] = [];
  let waiters: Waiter[] = [];

  return {
    record(event) {
      const waiter = waiters.find((candidate) => candidate.matches(event));
      entries.push({ event, taken: waiter !== undefined });
      // Trimmed in batches so that recording stays O(1) per event.
      if (entries.length > 2 * KEPT_EVENTS) entries = entries.slice(-KEPT_EVENTS);
      if (waiter) {
        waiters = waiters.filter((candidate) => candidate !== waiter);
        waiter.resolve(structuredClone(event));
      }
    },
    events: () => entries.slice(-KEPT_EVENTS).map((entry) => structuredClone(entry.event)),
    next(matches, description, { timeoutMs = DEFAULT_EVENT_TIMEOUT_MS } = {}) {
      const kept = entries.find((entry) => !entry.taken && matches(entry.event));
      if (kept) {
        kept.taken = true;
        return Promise.resolve(structuredClone(kept.event));
      }
      // Made here so that its stack points at the test that waited, not at a timer.
      const timeout = new Error(`no ${description} event within ${timeoutMs} ms`);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          matches,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((candidate) => candidate !== waiter);
          const untaken = entries.filter((entry) => !entry.taken).map((entry) => entry.event.type);
          const listed = untaken.slice(-10).join(', ') + (untaken.length > 10 ? ` and ${untaken.length - 10} older` : '');
          timeout.message += untaken.length > 0 ? ` (events not taken: ${listed})` : ' (every event so far was taken)';
          reject(timeout);
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    clear() {
      entries = [];
    },
  };
}

/** What `mock.nextEvent(...)` was given: a type, a type and a test, or a test; then options. */
export type NextEventArgs =
  | [type?: CustomerEventType | ((event: CustomerEvent) => boolean) | undefined, options?: NextEventOptions]
  | [type: CustomerEventType, matches: ((event: CustomerEvent) => boolean) | undefined, options?: NextEventOptions];

/**
 * The test and description of a `nextEvent` call's arguments.
 *
 * @example
 * eventMatcher(['customer.updated', (event) => event.data.customer.id === id]).description; // "matching customer.updated"
 */
export function eventMatcher(args: NextEventArgs): {
  matches: (event: CustomerEvent) => boolean;
  description: string;
  options: NextEventOptions | undefined;
} {
  const [first, second, third] = args;
  const type = typeof first === 'string' ? first : undefined;
  const test = typeof first === 'function' ? first : typeof second === 'function' ? second : undefined;
  const options = typeof second === 'object' ? second : third;
  return {
    matches: (event) => (type === undefined || event.type === type) && (test === undefined || test(event)),
    description: `${test ? 'matching ' : ''}${type ?? (test ? '' : 'customer')}`.trim(),
    options,
  };
}
