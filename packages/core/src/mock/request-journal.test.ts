import { describe, expect, it } from 'vitest';
import { createRequestJournal, journalBody, journalHeader, type JournalEntry } from './request-journal.js';

const entry = (n: number, more: Partial<JournalEntry> = {}): JournalEntry => ({
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
  ...more,
});

describe('createRequestJournal', () => {
  it('filters by operation, method, status and seller, oldest first, the newest `limit` of them', () => {
    const journal = createRequestJournal();
    journal.record(entry(1));
    journal.record(entry(2, { method: 'POST', operation: 'createCustomer', status: 201 }));
    journal.record(entry(3, { seller: 's2' }));
    journal.record(entry(4, { status: 404, operation: null, path: '/nope' }));
    expect(journal.read({ operation: 'listCustomers' }).data.map((e) => e.requestId)).toEqual(['req_1', 'req_3']);
    expect(journal.read({ method: 'post' }).data.map((e) => e.requestId)).toEqual(['req_2']);
    expect(journal.read({ status: 404 }).data.map((e) => e.path)).toEqual(['/nope']);
    expect(journal.read({ seller: 's1', limit: 2 }).data.map((e) => e.requestId)).toEqual(['req_2', 'req_4']);
    expect(journal.read().dropped).toBe(0);
  });

  it('keeps the newest `size` entries and counts the dropped ones; clear forgets both', () => {
    const journal = createRequestJournal(3);
    for (let n = 1; n <= 10; n++) journal.record(entry(n));
    const page = journal.read();
    expect(page.data.map((e) => e.requestId)).toEqual(['req_8', 'req_9', 'req_10']);
    expect(page.dropped).toBe(7);
    journal.clear();
    expect(journal.read()).toEqual({ data: [], dropped: 0 });
    expect(() => createRequestJournal(0)).toThrow(RangeError);
  });

  it('hands out copies', () => {
    const journal = createRequestJournal();
    journal.record(entry(1, { body: { a: 1 } }));
    (journal.read().data[0]!.body as { a: number }).a = 2;
    expect(journal.read().data[0]!.body).toEqual({ a: 1 });
  });
});

describe('journalHeader and journalBody', () => {
  it('shows API keys only by their 12-character prefix', () => {
    const key = `sk_live_${'A'.repeat(48)}`;
    expect(journalHeader('X-API-Key', key)).toBe('sk_live_AAAA…');
    expect(journalHeader('authorization', `Bearer ${key}`)).toBe('Bearer sk_live_AAAA…');
    expect(journalHeader('idempotency-key', 'k-1')).toBe('k-1');
  });

  it('parses JSON bodies and keeps other text', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(journalBody(bytes('{"a":1}'))).toEqual({ a: 1 });
    expect(journalBody(bytes('not json'))).toBe('not json');
    expect(journalBody(null)).toBeNull();
  });
});
