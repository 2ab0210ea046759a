import { describe, expect, it } from 'vitest';
import { holdBody, JOURNAL_BODY_LIMIT_BYTES, journalBody } from './journal-body.js';
import { journalHeader } from './journal-headers.js';
import { createRequestJournal, journalEntryBytes, type JournalRecord } from './request-journal.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const key = `sk_live_${'A'.repeat(48)}`;

describe('journal bodies at their bounds', () => {
  it('keeps a body of exactly 8 KiB whole, parsed, and not marked truncated', () => {
    const text = `"${'a'.repeat(JOURNAL_BODY_LIMIT_BYTES - 2)}"`;
    expect(holdBody('POST', bytes(text))).toEqual({ text, json: true, truncated: false });
    expect(journalBody(bytes(text))).toBe('a'.repeat(JOURNAL_BODY_LIMIT_BYTES - 2));
    expect(holdBody('POST', bytes(`${text} `))).toMatchObject({ json: false, truncated: true });
  });

  it('says a body that is not JSON is text, so reads hand back the text', () => {
    expect(holdBody('PATCH', bytes('first_name=Ada'))).toEqual({ text: 'first_name=Ada', json: false, truncated: false });
    expect(journalBody(bytes('{"a":'))).toBe('{"a":');
  });
});

describe('journal headers: API keys written loosely', () => {
  it('shows an X-API-Key with spaces around it by its prefix, spaces dropped', () => {
    expect(journalHeader('x-api-key', `  ${key}\t`)).toBe('sk_live_AAAA…');
  });

  it('shows a Bearer API key after several spaces or tabs, or with trailing ones, by its prefix', () => {
    expect(journalHeader('authorization', `Bearer   ${key}`)).toBe('Bearer sk_live_AAAA…');
    expect(journalHeader('authorization', `Bearer \t${key}`)).toBe('Bearer sk_live_AAAA…');
    expect(journalHeader('authorization', `Bearer ${key}  \t`)).toBe('Bearer sk_live_AAAA…');
  });

  it('redacts whole an Authorization that only contains "Bearer <key>" or has more after it', () => {
    expect(journalHeader('authorization', `XBearer ${key}`)).toBe('[redacted]');
    expect(journalHeader('authorization', `Token Bearer ${key}`)).toBe('[redacted]');
    expect(journalHeader('authorization', `Bearer ${key} extra`)).toBe('[redacted]');
    expect(journalHeader('authorization', `Bearer ${key}, Basic dXNlcjpwYXNz`)).toBe('[redacted]');
  });
});

const record = (over: Partial<JournalRecord> = {}): JournalRecord => ({
  at: '2026-11-28T10:00:00.000Z', // 24 characters
  method: 'POST', // 4
  path: '/api/customers', // 14
  query: 'a=1', // 3
  operation: 'createCustomer', // 14
  headers: { 'content-type': 'application/json' }, // 12 + 16
  body: null,
  status: 201,
  forced: false,
  requestId: 'req_1', // 5
  seller: 'seller_1', // 8
  ...over,
});

describe('journalEntryBytes: 512 plus 2 bytes per character of every string kept', () => {
  it('counts the time, method, path, query, operation, request id, seller, header names and values and the body', () => {
    const { body: _, ...entry } = record();
    const chars = 24 + 4 + 14 + 3 + 14 + 5 + 8 + 12 + 16;
    expect(journalEntryBytes(entry, null)).toBe(512 + 2 * chars);
    expect(journalEntryBytes(entry, holdBody('POST', bytes('{"a":1}')))).toBe(512 + 2 * (chars + 7));
    const bare = { ...entry, operation: null, requestId: null, seller: null, headers: {} };
    expect(journalEntryBytes(bare, null)).toBe(512 + 2 * (24 + 4 + 14 + 3));
  });

  it('is what usage() reports', () => {
    const journal = createRequestJournal(10);
    journal.record(record());
    journal.record(record({ operation: null, seller: null }));
    const { body: _, ...entry } = record();
    const one = journalEntryBytes(entry, null);
    expect(journal.usage()).toEqual({ entries: 2, bytes: one + (one - 2 * (14 + 8)), maxEntries: 10, maxBytes: 16 * 1024 * 1024 });
  });
});

describe('createRequestJournal: its memory bound', () => {
  it('keeps an entry that costs exactly the bound, and drops it for one more byte of cost', () => {
    const { body: _, ...entry } = record();
    const cost = journalEntryBytes(entry, null);
    const exact = createRequestJournal(10, cost);
    exact.record(record());
    expect(exact.usage()).toMatchObject({ entries: 1, bytes: cost });
    expect(exact.read().dropped).toBe(0);
    const under = createRequestJournal(10, cost - 1);
    under.record(record());
    expect(under.usage()).toMatchObject({ entries: 0, bytes: 0 });
    expect(under.read()).toEqual({ data: [], dropped: 1 });
  });

  it('may be 1 byte (nothing fits, everything is counted as dropped) but not less, nor a fraction', () => {
    const tiny = createRequestJournal(5, 1);
    tiny.record(record());
    expect(tiny.read()).toEqual({ data: [], dropped: 1 });
    for (const maxBytes of [0, -1, 0.5, Number.NaN]) {
      expect(() => createRequestJournal(5, maxBytes)).toThrow(
        new RangeError(`the journal memory must be a whole number of bytes, 1 or more; got ${maxBytes}`),
      );
    }
  });
});
