import { describe, expect, it } from 'vitest';
import { createRequestJournal, journalBody, journalHeader, type JournalEntry } from './request-journal.js';

const entry = (n: number): JournalEntry => ({
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

describe('createRequestJournal: its size', () => {
  it('may be 1: the newest request only, every older one counted as dropped', () => {
    const journal = createRequestJournal(1);
    journal.record(entry(1));
    expect(journal.read()).toEqual({ data: [entry(1)], dropped: 0 });
    for (let n = 2; n <= 5; n++) journal.record(entry(n));
    expect(journal.read()).toEqual({ data: [entry(5)], dropped: 4 });
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
  it('cuts an Authorization value without a scheme like an X-API-Key', () => {
    const key = `sk_test_${'B'.repeat(48)}`;
    expect(journalHeader('Authorization', key)).toBe('sk_test_BBBB…');
  });

  it('keeps the words after the scheme together before cutting them', () => {
    expect(journalHeader('authorization', 'Basic abc def ghijklmnop')).toBe('Basic abc def ghij…');
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
