import { describe, expect, it } from 'vitest';
import { isDateTime } from './date-time.js';

// Every field at its last valid value and one past it: a date-time names a real instant or is refused.
describe('isDateTime', () => {
  it.each([
    '2026-01-01T00:00:00Z',
    '2026-12-31T23:59:59Z',
    '2026-11-25T09:30:00.123456789Z',
    '2026-11-25t09:30:00z',
    '2026-11-25 09:30:00Z',
    '2026-04-30T12:00:00Z',
    '2026-02-28T12:00:00Z',
    '2028-02-29T12:00:00Z',
    '2026-11-25T10:30:00.5+01:00',
    '2026-11-25T09:30:00+23:59',
    '2026-11-25T09:30:00-23:59',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  it.each([
    ['2026-00-10T12:00:00Z', 'month 0'],
    ['2026-13-10T12:00:00Z', 'month 13'],
    ['2026-01-00T12:00:00Z', 'day 0'],
    ['2026-01-32T12:00:00Z', 'day 32 of January'],
    ['2026-04-31T12:00:00Z', 'day 31 of April'],
    ['2026-02-29T12:00:00Z', 'day 29 of February outside a leap year'],
    ['2026-01-10T24:00:00Z', 'hour 24'],
    ['2026-01-10T12:60:00Z', 'minute 60'],
    ['2026-01-10T12:00:60Z', 'second 60'],
    ['2026-01-10T12:00:00+24:00', 'offset of 24 hours'],
    ['2026-01-10T12:00:00+00:60', 'offset minutes 60'],
    ['2026-01-10', 'a bare date'],
    ['2026-01-10T12:00:00', 'no time zone'],
    ['2026-01-10T12:00:00.Z', 'an empty fraction'],
    ['2026-01-10T12:00:00.1234567890Z', 'ten fraction digits'],
  ])('refuses %s (%s)', (value) => {
    expect(isDateTime(value)).toBe(false);
  });
});
