import pg from 'pg';

// The API's timestamps are ISO 8601 UTC strings with milliseconds. pg turns every timestamptz into a Date (a regex
// and a Date per value) that rowToCustomer/asCustomer then turn back into that string: on a list page, 42 of them,
// measured (issue 28, V8 profile of the PostgreSQL list under load) about 9% of the server's CPU, plus the garbage.
// The server's connections use UTC (POSTGRES_SESSION_OPTIONS), where PostgreSQL writes a timestamptz as
// `2026-11-27 03:12:45.123+00`: that text becomes the string by slicing. Any other form (a connection string that
// sets its own time zone, years past 9999, BC, infinity) goes through pg's own parser, as before.

const TIMESTAMPTZ = 1184;
const parseAsPg = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** Startup options for the server's PostgreSQL connections: timestamps written in UTC (no extra round trip). */
export const POSTGRES_SESSION_OPTIONS = '-c TimeZone=UTC';

/**
 * A timestamptz as PostgreSQL writes it in text, as the API's string (`2026-11-27T03:12:45.123Z`); microseconds
 * are cut to milliseconds as a Date would. A value not in UTC's plain form is parsed by pg (a Date, or pg's value
 * for infinity), which the row mappers' `toIso` handles as before.
 *
 * @example
 * isoFromTimestamptz('2026-11-27 03:12:45.12+00'); // '2026-11-27T03:12:45.120Z'
 */
export function isoFromTimestamptz(text: string): unknown {
  const length = text.length;
  // `YYYY-MM-DD HH:MM:SS+00` is 22 characters; with a fraction, `.` then 1 to 6 digits before `+00`.
  const plain =
    text.charCodeAt(4) === 45 && text.charCodeAt(10) === 32 && text.endsWith('+00') &&
    (length === 22 || (length >= 24 && length <= 29 && text.charCodeAt(19) === 46));
  if (!plain) return parseAsPg(text);
  const fraction = length === 22 ? '000' : `${text.slice(20, length - 3)}00`.slice(0, 3);
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

/** pg's per-query type parsers: timestamptz as {@link isoFromTimestamptz}, every other type as pg parses it. */
export const ISO_TIMESTAMP_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary' ? isoFromTimestamptz : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
