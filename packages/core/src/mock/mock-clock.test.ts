import { describe, expect, it } from 'vitest';
import { createMockClock } from './mock-clock.js';

const HOUR = 3_600_000;

describe('createMockClock', () => {
  it('runs with the wall clock until set, then stands still at the instant set', async () => {
    let wall = Date.parse('2026-05-01T00:00:00Z');
    const clock = createMockClock({ wallClock: () => wall });
    wall += 1000;
    expect(clock.state()).toEqual({ now: '2026-05-01T00:00:01.000Z', frozen: false });
    await clock.set('2026-06-01T00:00:00Z');
    wall += 5000;
    expect(clock.state()).toEqual({ now: '2026-06-01T00:00:00.000Z', frozen: true });
  });

  it('refuses to go back, and says how to test the past', async () => {
    const clock = createMockClock({ start: '2026-06-01T00:00:00Z' });
    await expect(clock.set('2026-05-31T23:59:59Z')).rejects.toThrow(/cannot go back.*seed clock/);
    await expect(clock.set('yesterday')).rejects.toThrow(/not an instant/);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    expect(clock.state().now).toBe('2026-06-01T00:00:00.000Z');
  });

  it('unfreezes without jumping back: time runs on from the current now', async () => {
    let wall = Date.parse('2026-01-01T00:00:00Z');
    const clock = createMockClock({ start: '2030-01-01T00:00:00Z', wallClock: () => wall });
    clock.unfreeze();
    wall += 2000;
    expect(clock.state()).toEqual({ now: '2030-01-01T00:00:02.000Z', frozen: false });
    await clock.advance(HOUR); // a running clock stays running
    wall += 1000;
    expect(clock.state()).toEqual({ now: '2030-01-01T01:00:03.000Z', frozen: false });
  });

  it('runs the work due within an advance in order, each at its own due instant, before settling', async () => {
    const clock = createMockClock({ start: '2026-01-01T00:00:00Z' });
    const ran: string[] = [];
    clock.schedule(5000, () => {
      ran.push(`a@${clock.state().now}`);
      // Work scheduled by due work is run too when it falls within the same advance.
      clock.schedule(60_000, async () => {
        await Promise.resolve();
        ran.push(`b@${clock.state().now}`);
      });
    });
    const cancel = clock.schedule(1000, () => ran.push('cancelled'));
    cancel();
    await clock.advance(4999);
    expect(ran).toEqual([]);
    await clock.advance(70_000);
    expect(ran).toEqual(['a@2026-01-01T00:00:05.000Z', 'b@2026-01-01T00:01:05.000Z']);
    expect(clock.state().now).toBe('2026-01-01T00:01:14.999Z');
  });

  it('gives strictly increasing timestamps, from the start instant again after a reset', async () => {
    const clock = createMockClock({ start: '2020-01-01T00:00:00Z' });
    expect([clock.timestamp(), clock.timestamp()]).toEqual(['2020-01-01T00:00:00.000Z', '2020-01-01T00:00:00.001Z']);
    const dropped: string[] = [];
    clock.schedule(10, () => dropped.push('ran'));
    await clock.advance(HOUR);
    clock.schedule(10, () => dropped.push('ran after reset'));
    clock.reset();
    await clock.advance(20);
    expect(dropped).toEqual(['ran']);
    expect(clock.timestamp()).toBe('2020-01-01T00:00:00.020Z');
  });
});
