import { describe, expect, it } from 'vitest';
import { parseNewKey } from './key-input.js';

const now = new Date('2026-01-01T00:00:00Z');
const refusal = (body: unknown) => {
  try {
    parseNewKey(body, now);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('parseNewKey', () => {
  it.each([
    ['\ud800abc', 'name must be valid Unicode text (no unpaired surrogates)'],
    ['abc\udfff', 'name must be valid Unicode text (no unpaired surrogates)'],
    ['a\udc00\ud800b', 'name must be valid Unicode text (no unpaired surrogates)'],
    ['tab\there', 'name must not contain control or bidirectional formatting characters'],
    ['nul\u0000', 'name must not contain control or bidirectional formatting characters'],
    ['del\u007f', 'name must not contain control or bidirectional formatting characters'],
    ['c1\u0085next-line', 'name must not contain control or bidirectional formatting characters'],
    ['c1\u009f', 'name must not contain control or bidirectional formatting characters'],
    ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'].map(
      (c) => [`prod${c}key`, 'name must not contain control or bidirectional formatting characters'],
    ),
  ])('refuses %j', (name, message) => {
    expect(refusal({ name })).toBe(message);
  });

  it('keeps well-formed names, astral characters and right-to-left scripts included, exactly as given (trimmed)', () => {
    for (const name of ['CI server', 'Déploiement ✓', 'emoji 🔑 key', 'מפתח ייצור', 'مفتاح', 'a\u0301']) {
      expect(parseNewKey({ name: ` ${name} ` }, now).name).toBe(name);
    }
  });

  it.each(['2030-02-30', '2030-02-29', '2030-04-31', '2030-13-01', '2030-00-10', '2030-01-00', '2030-01-32',
    '2030-01-31T24:30', '2030-01-31T23:60', '2030-01-31T23:59:60', '2030-01-31T10:00+24:00', '2030-01-31T10:00+05:60'])(
    'refuses the impossible date %s instead of rolling it over',
    (expires_at) => {
      expect(refusal({ name: 'x', expires_at })).toBe(
        'expires_at must be an ISO 8601 date or date-time, e.g. 2030-01-31 or 2030-01-31T00:00:00Z',
      );
    },
  );

  it('accepts real calendar dates, leap days included', () => {
    expect(parseNewKey({ name: 'x', expires_at: '2028-02-29' }, now).expiresAt).toBe('2028-02-29T00:00:00.000Z');
    expect(parseNewKey({ name: 'x', expires_at: '2030-12-31T23:59:59Z' }, now).expiresAt).toBe('2030-12-31T23:59:59.000Z');
    expect(parseNewKey({ name: 'x', expires_at: '2030-06-30T10:00+02:00' }, now).expiresAt).toBe('2030-06-30T08:00:00.000Z');
  });
});
