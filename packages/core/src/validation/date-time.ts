const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** The first instant a date-time may name: every database stores it (PostgreSQL has no year 0). */
export const EARLIEST_INSTANT = '0001-01-01T00:00:00Z';
/** The last instant a date-time may name: the last millisecond with a four-digit year in UTC. */
export const LATEST_INSTANT = '9999-12-31T23:59:59.999Z';

/** Milliseconds since the epoch of a UTC calendar time; Date.UTC would read years 0-99 as 1900-1999. */
function utcMilliseconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

const EARLIEST_MS = utcMilliseconds(1, 1, 1);
const LATEST_MS = utcMilliseconds(9999, 12, 31, 23, 59, 59, 999);

/** An instant to the millisecond (rounded down), and whether the text named a finer part of a millisecond. */
interface Instant {
  ms: number;
  finer: boolean;
}

/** The instant a well-formed RFC 3339 date-time with a real calendar date names (the offset applied), or undefined. */
function readDateTime(value: string): Instant | undefined {
  const match = RFC_3339.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const sign = match[9] === '-' ? -1 : 1;
  const offsetHours = Number(match[10] ?? 0);
  const offsetMinutes = Number(match[11] ?? 0);
  const daysInMonth = month >= 1 && month <= 12 ? new Date(utcMilliseconds(year, month + 1, 0)).getUTCDate() : 0;
  const valid =
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 &&
    offsetHours <= 23 && offsetMinutes <= 59;
  if (!valid) return undefined;
  const local = utcMilliseconds(year, month, day, hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  return { ms: local - sign * (offsetHours * 60 + offsetMinutes) * 60_000, finer: /[1-9]/.test(fraction.slice(3)) };
}

function inRange({ ms, finer }: Instant): boolean {
  return ms >= EARLIEST_MS && (ms < LATEST_MS || (ms === LATEST_MS && !finer));
}

/**
 * Whether a string is an ISO 8601 / RFC 3339 date-time with a time zone (`2026-11-25T09:30:00Z`,
 * `2026-11-25T10:30:00.5+01:00`) naming a real instant from {@link EARLIEST_INSTANT} to {@link LATEST_INSTANT}
 * once its offset is applied: `2030-02-30T00:00:00Z`, a bare date and `9999-12-31T23:59:59-01:00` are not.
 *
 * @example
 * isDateTime('2026-11-25T09:30:00Z'); // true
 * isDateTime('2026-11-25'); // false
 */
export function isDateTime(value: string): boolean {
  const instant = readDateTime(value);
  return instant !== undefined && inRange(instant);
}

/**
 * Whether a string is a well-formed date-time whose instant lies outside {@link EARLIEST_INSTANT} …
 * {@link LATEST_INSTANT} (so its error can say so instead of describing the format).
 *
 * @example
 * isDateTimeOutOfRange('0000-01-01T00:00:00Z'); // true
 * isDateTimeOutOfRange('2026-11-25'); // false: not a date-time at all
 */
export function isDateTimeOutOfRange(value: string): boolean {
  const instant = readDateTime(value);
  return instant !== undefined && !inRange(instant);
}

/**
 * A valid date-time (see {@link isDateTime}) as the UTC text the stores compare with their `created_at`
 * (`2026-11-25T08:30:00.000Z`): the offset applied, and a part of a millisecond rounded up to the next one, since
 * stored instants are whole milliseconds (so `>=` and `<` keep their meaning). Undefined for anything else.
 *
 * @example
 * utcInstant('2026-11-25T09:30:00+01:00'); // '2026-11-25T08:30:00.000Z'
 * utcInstant('2026-11-25T09:30:00.0001Z'); // '2026-11-25T09:30:00.001Z'
 */
export function utcInstant(value: string): string | undefined {
  const instant = readDateTime(value);
  if (!instant || !inRange(instant)) return undefined;
  return new Date(instant.ms + (instant.finer ? 1 : 0)).toISOString();
}

/** The generated query validators' `date-time` format (the shape ajv-formats' formats have). */
export const dateTimeFormat = { validate: isDateTime };
