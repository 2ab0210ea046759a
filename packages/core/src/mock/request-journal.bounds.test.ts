import { describe, expect, it } from 'vitest';
import { createRequestJournal, journalBody, journalHeader, REDACTED, type JournalEntry, type JournalRecord } from './request-journal.js';

/** What a host records for request n (a body-less GET). */
const entry = (n: number): JournalRecord => ({
  at: new Date(n * 1000).toISOString(),
  method: 'GET',
  path: '/api/customers',
  query: '',
  operation: 'listCustomers',
  headers: {},
  body: null,
  status: 200,
  forced: false,
  requestId: `req_${n}`,
  seller: 's1',
});

/** How the journal shows request n. */
const shown = (n: number): JournalEntry => ({ ...entry(n), body: null, bodyTruncated: false });

describe('createRequestJournal: its size', () => {
  it('may be 1: the newest request only, every older one counted as dropped', () => {
    const journal = createRequestJournal(1);
    journal.record(entry(1));
    expect(journal.read()).toEqual({ data: [shown(1)], dropped: 0 });
    for (let n = 2; n <= 5; n++) journal.record(entry(n));
    expect(journal.read()).toEqual({ data: [shown(5)], dropped: 4 });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (size) => {
    expect(() => createRequestJournal(size)).toThrow(new RangeError(`the journal size must be a whole number, 1 or more; got ${size}`));
  });

  it('counts nothing as dropped while it is not full, however often it is read', () => {
    const journal = createRequestJournal(4);
    for (let n = 1; n <= 4; n++) {
      journal.record(entry(n));
      expect(journal.read().dropped).toBe(0);
    }
    expect(journal.read().data).toHaveLength(4);
  });

  it('keeps exactly the newest `size` entries and an exact count of the rest at every step', () => {
    const journal = createRequestJournal(3);
    for (let n = 1; n <= 12; n++) {
      journal.record(entry(n));
      const { data, dropped } = journal.read();
      expect(data.map((e) => e.requestId)).toEqual([n - 2, n - 1, n].filter((m) => m >= 1).map((m) => `req_${m}`));
      expect(dropped).toBe(Math.max(0, n - 3));
    }
  });

  it('gives the newest `limit` matching entries, all of them when fewer match', () => {
    const journal = createRequestJournal();
    for (let n = 1; n <= 3; n++) journal.record(entry(n));
    expect(journal.read({ limit: 1 }).data.map((e) => e.requestId)).toEqual(['req_3']);
    expect(journal.read({ limit: 10 }).data.map((e) => e.requestId)).toEqual(['req_1', 'req_2', 'req_3']);
  });
});

describe('journalHeader and journalBody at their edges', () => {
  it('redacts an Authorization value without the Bearer scheme whole, even when it looks like an API key', () => {
    expect(journalHeader('Authorization', `sk_test_${'B'.repeat(48)}`)).toBe(REDACTED);
  });

  it('redacts other schemes whole: a prefix of a password is part of it', () => {
    expect(journalHeader('authorization', 'Basic abc def ghijklmnop')).toBe(REDACTED);
    expect(journalHeader('authorization', `Bearer not-an-api-key-${'x'.repeat(20)}`)).toBe(REDACTED);
  });

  it('cuts a Bearer API key to its first 12 characters, keeping the scheme', () => {
    expect(journalHeader('authorization', `bearer rk_live_${'C'.repeat(48)}`)).toBe('bearer rk_live_CCCC…');
  });

  it('shows a key of 12 characters or fewer whole, a longer one cut', () => {
    expect(journalHeader('x-api-key', 'sk_live_abcd')).toBe('sk_live_abcd');
    expect(journalHeader('x-api-key', 'sk_live_abcde')).toBe('sk_live_abcd…');
    expect(journalHeader('X-Api-Key', 'short')).toBe('short');
  });

  it('leaves other headers as they are, whatever their length', () => {
    const long = 'x'.repeat(40);
    expect(journalHeader('user-agent', long)).toBe(long);
  });

  it('gives null for an empty body, not an empty string', () => {
    expect(journalBody(new Uint8Array())).toBeNull();
  });
});
