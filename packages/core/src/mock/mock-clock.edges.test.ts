import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockClock } from './mock-clock.js';

const START = '2026-01-01T00:00:00.000Z';

describe('createMockClock: instants at the edges', () => {
  it('may be set to its own now (not back), and advanced by 0', async () => {
    const clock = createMockClock({ start: START });
    await clock.set(START);
    await clock.advance(0);
    expect(clock.state()).toEqual({ now: START, frozen: true });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -0.5])('refuses to advance by %s', async (ms) => {
    const clock = createMockClock({ start: START });
    await expect(clock.advance(ms)).rejects.toThrow(`advance takes milliseconds, 0 or more; got ${ms}`);
    expect(clock.state().now).toBe(START);
  });

  it('takes a Date, an ISO string or epoch milliseconds, and names what does not parse', async () => {
    const clock = createMockClock({ start: new Date(START) });
    await clock.set(Date.parse(START) + 1000);
    expect(clock.now()).toBe(Date.parse(START) + 1000);
    await clock.set(new Date(Date.parse(START) + 2000));
    expect(clock.state().now).toBe('2026-01-01T00:00:02.000Z');
    await expect(clock.set(Number.NaN)).rejects.toThrow('not an instant: NaN (use ISO 8601, e.g. 2026-01-01T00:00:00Z)');
    expect(() => createMockClock({ start: 'soon' })).toThrow(RangeError);
  });

  it('says which instant is refused when set back, and its now', async () => {
    const clock = createMockClock({ start: START });
    await expect(clock.set('2025-12-31T23:59:59.999Z')).rejects.toThrow(
      'the clock cannot go back: 2025-12-31T23:59:59.999Z is before its now, 2026-01-01T00:00:00.000Z (start from a seed clock to test the past)',
    );
  });

  it('runs work due exactly at the instant advanced to, and not work due a millisecond later', async () => {
    const clock = createMockClock({ start: START });
    const ran: number[] = [];
    clock.schedule(1000, () => ran.push(1000));
    clock.schedule(1001, () => ran.push(1001));
    await clock.advance(1000);
    expect(ran).toEqual([1000]);
    await clock.set('2026-01-01T00:00:01.001Z');
    expect(ran).toEqual([1000, 1001]);
  });

  it('runs due work in the order it is due, not the order it was scheduled', async () => {
    const clock = createMockClock({ start: START });
    const ran: string[] = [];
    clock.schedule(3000, () => ran.push(`3s@${clock.state().now}`));
    clock.schedule(1000, () => ran.push(`1s@${clock.state().now}`));
    clock.schedule(2000, () => ran.push(`2s@${clock.state().now}`));
    await clock.set('2026-01-01T01:00:00Z');
    expect(ran).toEqual(['1s@2026-01-01T00:00:01.000Z', '2s@2026-01-01T00:00:02.000Z', '3s@2026-01-01T00:00:03.000Z']);
    expect(clock.state()).toEqual({ now: '2026-01-01T01:00:00.000Z', frozen: true });
  });

  it('cancels only the work whose cancel is called', async () => {
    const clock = createMockClock({ start: START });
    const ran: string[] = [];
    clock.schedule(10, () => ran.push('kept'));
    const cancel = clock.schedule(10, () => ran.push('cancelled'));
    cancel();
    await clock.advance(10);
    expect(ran).toEqual(['kept']);
  });

  it('leaves a running clock as it is when unfrozen', () => {
    let wall = Date.parse(START);
    const clock = createMockClock({ wallClock: () => wall });
    clock.unfreeze();
    wall += 500;
    expect(clock.state()).toEqual({ now: '2026-01-01T00:00:00.500Z', frozen: false });
  });

  it('resets a clock without a start to the wall clock, running', async () => {
    let wall = Date.parse(START);
    const clock = createMockClock({ wallClock: () => wall });
    await clock.set('2030-01-01T00:00:00Z');
    clock.reset();
    wall += 250;
    expect(clock.state()).toEqual({ now: '2026-01-01T00:00:00.250Z', frozen: false });
  });
});

describe('createMockClock: work waiting while the clock runs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse(START) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs in real time when due, not before, once each', async () => {
    const clock = createMockClock();
    const ran: string[] = [];
    clock.schedule(1000, () => ran.push(clock.state().now));
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['2026-01-01T00:00:01.000Z']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toHaveLength(1);
    expect(clock.state().frozen).toBe(false);
  });

  it('runs each of several tasks at its own time, the next armed after the first ran', async () => {
    const clock = createMockClock();
    const ran: number[] = [];
    clock.schedule(2000, () => ran.push(2000));
    clock.schedule(1000, () => ran.push(1000));
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toEqual([1000, 2000]);
  });

  it('runs work already overdue at once', async () => {
    const clock = createMockClock();
    const ran: string[] = [];
    clock.schedule(-500, () => ran.push('overdue'));
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toEqual(['overdue']);
  });

  it('keeps no timer for cancelled work, and none while frozen: the work waits for the clock', async () => {
    const clock = createMockClock();
    const cancel = clock.schedule(1000, () => {});
    cancel();
    expect(vi.getTimerCount()).toBe(0);
    await clock.set('2026-01-01T00:00:00.100Z');
    const ran: string[] = [];
    clock.schedule(1000, () => ran.push('ran'));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran).toEqual([]);
    clock.unfreeze();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ran).toEqual(['ran']);
  });

  it('drops waiting work and its timer on reset', async () => {
    const clock = createMockClock();
    const ran: string[] = [];
    clock.schedule(1000, () => ran.push('ran'));
    clock.reset();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(ran).toEqual([]);
  });

  it('reads the wall clock per call by default (Date faked after it was made)', () => {
    const clock = createMockClock();
    vi.setSystemTime(Date.parse(START) + 42);
    expect(clock.now()).toBe(Date.parse(START) + 42);
  });
});

describe('createMockClock where timers are plain numbers (browsers)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('schedules and cancels work all the same', () => {
    const pending = new Map<number, () => void>();
    let next = 0;
    vi.stubGlobal('setTimeout', (run: () => void) => {
      pending.set(++next, run);
      return next;
    });
    vi.stubGlobal('clearTimeout', (id: number) => pending.delete(id));
    const clock = createMockClock();
    const cancel = clock.schedule(1000, () => {});
    expect(pending.size).toBe(1);
    cancel();
    expect(pending.size).toBe(0);
  });
});
