import { describe, expect, it } from 'vitest';
import { createMonotonicClock } from './clock.js';

describe('createMonotonicClock', () => {
  it('follows the wall clock and never repeats or goes back', () => {
    let wall = Date.parse('2026-11-25T09:30:00.000Z');
    const now = createMonotonicClock(() => wall);
    expect(now()).toBe('2026-11-25T09:30:00.000Z');
    expect(now()).toBe('2026-11-25T09:30:00.001Z'); // same millisecond
    wall -= 5_000; // the system clock steps back
    expect(now()).toBe('2026-11-25T09:30:00.002Z');
    wall += 60_000;
    expect(now()).toBe('2026-11-25T09:30:55.000Z');
  });
});
