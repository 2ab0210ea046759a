import { describe, expect, it } from 'vitest';
import { refusal } from '../../test/refusal.js';
import type { SellerContext } from '../types.js';
import { changeTestClock, testClockNow, testClockTimestamp, type TestClockDoor } from './test-clock.js';

// The test clock's rules as a host calls them (the server passes the raw parsed body, whatever JSON it was).
const seller: SellerContext = { sellerId: 's1', customerLimit: 10, mode: 'test' };
const START = Date.parse('2026-01-01T00:00:00Z');

function door() {
  let now = START;
  const moves: string[] = [];
  const clock: TestClockDoor = {
    read: async () => ({ now, frozen: false }),
    set: async (_, target) => {
      moves.push(`set ${target - START}`);
      now = target;
    },
    advance: async (_, ms) => {
      moves.push(`advance ${ms}`);
      now += ms;
    },
  };
  return { clock, moves };
}

describe('changeTestClock', () => {
  it('refuses a body that is no JSON object as such, not as unknown properties, moving nothing', async () => {
    const { clock, moves } = door();
    for (const body of [null, [1], ['now'], 'soon', 7, true]) {
      expect(await refusal(changeTestClock(seller, clock, () => body))).toBe('400 body must be a JSON object');
    }
    expect(moves).toEqual([]);
  });

  it('may set the clock to exactly its now, never before it', async () => {
    const { clock, moves } = door();
    expect(await changeTestClock(seller, clock, () => ({ now: '2026-01-01T00:00:00Z' }))).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: false });
    expect(await refusal(changeTestClock(seller, clock, () => ({ now: '2025-12-31T23:59:59.999Z' })))).toBe(
      '400 now: the test clock cannot go back: 2025-12-31T23:59:59.999Z is before its now, 2026-01-01T00:00:00.000Z',
    );
    expect(await changeTestClock(seller, clock, () => ({ advance_ms: 0 }))).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: false });
    expect(moves).toEqual(['set 0', 'advance 0']);
  });
});

describe('the time a request’s rules read', () => {
  it('is the host’s moved on by the seller’s test clock in test mode only', () => {
    expect(testClockNow({ mode: 'test', testClockOffsetMs: 5000 }, START)).toBe(START + 5000);
    expect(testClockNow({ mode: 'live', testClockOffsetMs: 5000 }, START)).toBe(START);
    expect(testClockNow({ testClockOffsetMs: 5000 }, START)).toBe(START);
    expect(testClockNow({ mode: 'test' }, START)).toBe(START);
    expect(testClockNow({ mode: 'test', testClockOffsetMs: 0 }, START)).toBe(START);
    const stamp = () => '2026-01-01T00:00:00.000Z';
    expect(testClockTimestamp(stamp, { mode: 'test', testClockOffsetMs: 5000 })).toBe('2026-01-01T00:00:05.000Z');
    expect(testClockTimestamp(stamp, { mode: 'live', testClockOffsetMs: 5000 })).toBe('2026-01-01T00:00:00.000Z');
    expect(testClockTimestamp(stamp, { testClockOffsetMs: 5000 })).toBe('2026-01-01T00:00:00.000Z');
    expect(testClockTimestamp(stamp, { mode: 'test' })).toBe('2026-01-01T00:00:00.000Z');
  });
});
