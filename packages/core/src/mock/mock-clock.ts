import { createMonotonicClock, type Clock } from '../customers/clock.js';

/** What a mock's clock says: its time (ISO 8601 UTC) and whether it stands still. */
export interface ClockState {
  now: string;
  frozen: boolean;
}

/** Work waiting for an instant of the mock's clock (a webhook retry). */
interface Task {
  dueAt: number;
  run: () => unknown;
}

/**
 * The one clock of a mock: every time-dependent rule reads it (timestamps, key expiry, rate-limit windows,
 * the idempotency window, event times, webhook signatures and retries). It runs with the wall clock, shifted by
 * what tests advanced it, until a test sets it: then it stands still until advanced or unfrozen.
 */
export interface MockClock {
  /** Milliseconds since the epoch, as the mock sees them. */
  now(): number;
  /** Strictly increasing ISO 8601 timestamps of this clock (created_at, updated_at); back to the seed's on `reset()`. */
  timestamp: Clock;
  /** The time and whether it stands still. */
  state(): ClockState;
  /**
   * Sets the time and freezes it there; work due by then runs before the promise settles. Throws a RangeError
   * for an instant earlier than now (start from a seed clock to test the past) or one that does not parse.
   */
  set(instant: Date | string | number): Promise<void>;
  /** Moves the time forward by `ms` (frozen or not); work due on the way runs, in order, before the promise settles. */
  advance(ms: number): Promise<void>;
  /** Lets time run on from the current now, without jumping back to the wall clock. */
  unfreeze(): void;
  /** Back to the start: frozen at the seed's instant, or the wall clock; waiting work is dropped. */
  reset(): void;
  /** Runs `run` when the clock reaches `delayMs` from now (in real time while running, or when advanced); returns its cancel. */
  schedule(delayMs: number, run: () => unknown): () => void;
}

export interface MockClockOptions {
  /** Start frozen at this instant (a seed's `clock.now`); the wall clock when omitted. */
  start?: Date | string | number | undefined;
  /** The wall clock in milliseconds; default `Date.now`. */
  wallClock?: () => number;
}

/**
 * A mock's clock (see {@link MockClock}). No timer runs while nothing waits or while the clock is frozen: an
 * idle mock (a browser tab with MSW) pays nothing.
 *
 * @example
 * const clock = createMockClock({ start: '2026-01-01T00:00:00Z' });
 * await clock.advance(3_600_000);
 * clock.state(); // { now: '2026-01-01T01:00:00.000Z', frozen: true }
 */
export function createMockClock(options: MockClockOptions = {}): MockClock {
  const wall = options.wallClock ?? (() => Date.now()); // looked up per call: tests may fake Date later
  const start = options.start === undefined ? undefined : instantOf(options.start);
  /** While frozen: the time. */
  let frozenAt: number | undefined;
  /** While running: what is added to the wall clock. */
  let offset = 0;
  // Stryker disable next-line ArrayDeclaration: restart(), called before the clock is returned, sets it to []
  let tasks: Task[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timestamp: Clock;

  const now = () => frozenAt ?? wall() + offset;

  function restart(): void {
    frozenAt = start;
    offset = 0;
    tasks = [];
    // A fresh sequence: after a reset to the seed's instant, timestamps start from there again.
    timestamp = createMonotonicClock(now);
    arm();
  }

  /** One real timer for the earliest waiting task, only while the clock runs. */
  function arm(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (frozenAt !== undefined || tasks.length === 0) return;
    const next = Math.min(...tasks.map((task) => task.dueAt));
    timer = setTimeout(() => void runDue(now()), Math.max(0, next - now()));
    // Node: waiting retries keep no process alive (browsers have no unref).
    (timer as { unref?: () => void }).unref?.();
  }

  /** Runs the tasks due by `until` in the order they are due; each sees the clock at its own due instant when frozen. */
  async function runDue(until: number): Promise<void> {
    for (;;) {
      const due = tasks.filter((task) => task.dueAt <= until).sort((a, b) => a.dueAt - b.dueAt)[0];
      if (!due) break;
      tasks = tasks.filter((task) => task !== due);
      if (frozenAt !== undefined) frozenAt = Math.max(frozenAt, due.dueAt);
      await due.run();
    }
    arm();
  }

  function unfreeze(): void {
    if (frozenAt === undefined) return;
    offset = frozenAt - wall();
    frozenAt = undefined;
    arm();
  }

  async function moveTo(target: number): Promise<void> {
    if (frozenAt === undefined) frozenAt = now(); // stands still while due work runs
    await runDue(target);
    frozenAt = Math.max(frozenAt, target);
  }

  restart();

  return {
    now,
    timestamp: () => timestamp(),
    state: () => ({ now: new Date(now()).toISOString(), frozen: frozenAt !== undefined }),
    async set(instant) {
      const target = instantOf(instant);
      const current = now();
      if (target < current) {
        throw new RangeError(
          `the clock cannot go back: ${new Date(target).toISOString()} is before its now, ${new Date(current).toISOString()} (start from a seed clock to test the past)`,
        );
      }
      await moveTo(target);
    },
    async advance(ms) {
      if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`advance takes milliseconds, 0 or more; got ${ms}`);
      const wasFrozen = frozenAt !== undefined;
      await moveTo(now() + ms);
      if (!wasFrozen) unfreeze();
    },
    unfreeze,
    reset: restart,
    schedule(delayMs, run) {
      const task: Task = { dueAt: now() + delayMs, run };
      tasks.push(task);
      arm();
      return () => {
        tasks = tasks.filter((candidate) => candidate !== task);
        arm();
      };
    },
  };
}

function instantOf(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${String(value)} (use ISO 8601, e.g. 2026-01-01T00:00:00Z)`);
  return ms;
}
