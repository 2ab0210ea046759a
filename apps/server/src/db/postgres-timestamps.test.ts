import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/test-database.js';
import { connectDatabase } from './connect.js';
import { isoFromTimestamptz } from './postgres-timestamps.js';
import { toIso } from './rows.js';

/** What the server answered before: pg's Date, then toISOString. */
const viaDate = (text: string) => toIso(pg.types.getTypeParser(1184, 'text')(text) as Date);

describe('isoFromTimestamptz', () => {
  it.each([
    '2026-11-27 03:12:45+00',
    '2026-11-27 03:12:45.1+00',
    '2026-11-27 03:12:45.12+00',
    '2026-11-27 03:12:45.123+00',
    '2026-11-27 03:12:45.1234+00',
    '2026-11-27 03:12:45.999999+00',
    '0999-01-02 00:00:00.5+00',
  ])('gives %s as the Date path did', (text) => {
    expect(isoFromTimestamptz(text)).toBe(viaDate(text));
  });

  it.each([
    ['another offset', '2026-11-27 04:12:45.123+01'],
    ['an offset with minutes', '2026-11-27 08:42:45.123+05:30'],
    ['a year past 9999', '10000-01-01 00:00:00+00'],
  ])('leaves %s to pg (a Date, mapped by toIso as before)', (_, text) => {
    const value = isoFromTimestamptz(text);
    expect(value).toBeInstanceOf(Date);
    expect(toIso(value as Date)).toBe(viaDate(text));
  });

  it('leaves infinity to pg', () => {
    expect(isoFromTimestamptz('infinity')).toBe(Infinity);
  });
});

describe('timestamps read by the PostgreSQL prepared statements', () => {
  const db = useTestDatabase('postgres');
  const statement = { name: 'timestamps_test', text: 'select $1::timestamptz as at' };
  const values = ['2026-11-27T03:12:45.123Z', '2026-11-27T03:12:45.000Z', '2026-11-27T03:12:45.100Z', '2026-01-01T00:00:00.001Z'];

  it('are the API strings, equal to what Kysely reads as a Date', async () => {
    for (const value of values) {
      const [row] = (await db.handle.prepared!(statement, [value])) as Array<{ at: unknown }>;
      expect(row!.at).toBe(value);
    }
    const [micro] = (await db.handle.prepared!(statement, ['2026-11-27 03:12:45.123456+00'])) as Array<{ at: unknown }>;
    expect(micro!.at).toBe('2026-11-27T03:12:45.123Z');
  });

  it('keep their instant on a connection whose URL asks for another time zone (the Date path)', async () => {
    const url = new URL(db.database.url);
    url.searchParams.set('options', '-c TimeZone=Asia/Kolkata');
    const handle = connectDatabase(url.toString(), { poolSize: 1 });
    try {
      const [zone] = (await handle.prepared!({ name: 'zone_test', text: 'select current_setting($1) as zone' }, ['TimeZone'])) as Array<{ zone: string }>;
      expect(zone!.zone).toBe('Asia/Kolkata');
      for (const value of values) {
        const [row] = (await handle.prepared!(statement, [value])) as Array<{ at: unknown }>;
        expect(toIso(row!.at as Date)).toBe(value);
      }
    } finally {
      await handle.close();
    }
  });
});
