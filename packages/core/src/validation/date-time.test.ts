import { describe, expect, it } from 'vitest';
import { isDateTime, isDateTimeOutOfRange, utcInstant } from './date-time.js';

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

describe('the range of instants: 0001-01-01T00:00:00Z … 9999-12-31T23:59:59.999Z, offset applied', () => {
  it.each([
    '0001-01-01T00:00:00Z',
    '0001-01-01T23:59:00+23:59',
    '0004-02-29T00:00:00Z',
    '0099-06-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59.999000000Z',
    '9999-12-31T23:59:59+00:00',
    '9999-12-31T00:00:00-23:59',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
    expect(isDateTimeOutOfRange(value)).toBe(false);
  });

  it.each([
    '0000-01-01T00:00:00Z',
    '0000-12-31T23:59:59.999Z',
    '0001-01-01T00:00:00+00:01',
    '0001-01-01T00:00:00+23:59',
    '9999-12-31T23:59:59.9991Z',
    '9999-12-31T23:59:59-00:01',
    '9999-12-31T23:59:59-23:59',
  ])('refuses %s, and says it is out of range', (value) => {
    expect(isDateTime(value)).toBe(false);
    expect(isDateTimeOutOfRange(value)).toBe(true);
  });

  it('does not call a malformed value out of range', () => {
    expect(isDateTimeOutOfRange('0000-13-01T00:00:00Z')).toBe(false);
    expect(isDateTimeOutOfRange('10000-01-01T00:00:00Z')).toBe(false);
  });
});

describe('utcInstant', () => {
  it('applies the offset and writes UTC to the millisecond', () => {
    expect(utcInstant('2026-11-25T09:30:00+01:00')).toBe('2026-11-25T08:30:00.000Z');
    expect(utcInstant('2026-11-25t09:30:00.5z')).toBe('2026-11-25T09:30:00.500Z');
    expect(utcInstant('2026-11-25 00:30:00-23:59')).toBe('2026-11-26T00:29:00.000Z');
    expect(utcInstant('0001-01-02T00:00:00+23:59')).toBe('0001-01-01T00:01:00.000Z');
    expect(utcInstant('0050-03-01T00:00:00Z')).toBe('0050-03-01T00:00:00.000Z');
  });
  it('rounds a part of a millisecond up, so a bound keeps its meaning against whole-millisecond instants', () => {
    expect(utcInstant('2026-11-25T09:30:00.0001Z')).toBe('2026-11-25T09:30:00.001Z');
    expect(utcInstant('2026-11-25T09:30:00.123000Z')).toBe('2026-11-25T09:30:00.123Z');
    expect(utcInstant('9999-12-31T23:59:59.998001Z')).toBe('9999-12-31T23:59:59.999Z');
  });
  it('is undefined for a malformed or out-of-range value', () => {
    expect(utcInstant('2026-11-25')).toBeUndefined();
    expect(utcInstant('9999-12-31T23:59:59-23:59')).toBeUndefined();
  });
});
