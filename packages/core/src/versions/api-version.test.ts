import { describe, expect, it } from 'vitest';
import { API_VERSIONS, LATEST_API_VERSION, apiVersionHeaders, resolveApiVersion, utcDate, type ApiVersion } from './api-version.js';

const sending = (value?: string) => (name: string) => (name === 'customers-version' ? value : undefined);
const LIST: ApiVersion[] = [
  { version: '2027-03-01', summary: 'newer' },
  { version: '2026-11-26', summary: 'first', deprecated: '2027-03-01', sunset: '2027-09-01' },
];
const on = (day: string) => () => new Date(`${day}T12:00:00Z`);

describe('resolveApiVersion', () => {
  it('lists openapi.yaml versions newest first, the first being the latest', () => {
    expect(API_VERSIONS[0]!.version).toBe(LATEST_API_VERSION);
    expect(API_VERSIONS.map((entry) => entry.version)).toContain('2026-11-26');
  });

  it('answers without the header in the latest version', () => {
    expect(resolveApiVersion(sending())).toEqual({ version: LATEST_API_VERSION });
    expect(resolveApiVersion(sending(), on('2027-01-01'), LIST)).toEqual({ version: '2027-03-01' });
  });

  it('answers in a supported version that was asked for', () => {
    expect(resolveApiVersion(sending('2026-11-26'), on('2027-01-01'), LIST)).toEqual({ version: '2026-11-26' });
  });

  it.each(['2020-13-01', '2026-02-30', '2026-11-25', 'latest', '', ' 2026-11-26', '2026-11-26T00:00:00Z'])(
    'refuses %j with a 400 naming the header and the supported versions, answering in the latest',
    (sent) => {
      const { version, error } = resolveApiVersion(sending(sent), on('2027-01-01'), LIST);
      expect(version).toBe('2027-03-01');
      expect(error?.status).toBe(400);
      expect(error?.toBody()).toEqual({
        error: 'Bad Request',
        message: 'Customers-Version header must be one of: 2027-03-01, 2026-11-26',
      });
    },
  );

  it('refuses a version from its sunset day on (UTC) and stops listing it', () => {
    expect(resolveApiVersion(sending('2026-11-26'), () => new Date('2027-08-31T23:59:59Z'), LIST).error).toBeUndefined();
    const { error } = resolveApiVersion(sending('2026-11-26'), () => new Date('2027-09-01T00:00:00Z'), LIST);
    expect(error?.message).toBe('Customers-Version header must be one of: 2027-03-01');
  });

  it('answers the latest asked for by name with one comparison: no clock read, no list walk', () => {
    const now = () => {
      throw new Error('clock read');
    };
    expect(resolveApiVersion(sending('2027-03-01'), now, LIST)).toEqual({ version: '2027-03-01' });
  });

  it('reads no clock when no version has a sunset', () => {
    const now = () => {
      throw new Error('clock read');
    };
    expect(resolveApiVersion(sending('2026-11-26'), now, [LIST[1]!].map(({ sunset: _, ...rest }) => rest))).toEqual({
      version: '2026-11-26',
    });
  });
});

describe('apiVersionHeaders', () => {
  it('names the requested version when valid, else the latest', () => {
    expect(apiVersionHeaders(sending(LATEST_API_VERSION))).toEqual({ 'Customers-Version': LATEST_API_VERSION });
    expect(apiVersionHeaders(sending('2020-13-01'))).toEqual({ 'Customers-Version': LATEST_API_VERSION });
  });
});

describe('utcDate', () => {
  it('is the UTC calendar day', () => {
    expect(utcDate(new Date('2026-11-26T23:30:00-02:00'))).toBe('2026-11-27');
  });
});
