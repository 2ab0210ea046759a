import { describe, expect, it } from 'vitest';
import { createRequestJournal, journalEntryBytes, type JournalRecord } from './request-journal.js';

const bytes = (text: string) => new TextEncoder().encode(text);

const entry = (n: number, more: Partial<JournalRecord> = {}): JournalRecord => ({
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
    for (let n = 1; n <= 200; n++) journal.record(entry(n));
    const page = journal.read();
    expect(page.data.map((e) => e.requestId)).toEqual(['req_198', 'req_199', 'req_200']);
    expect(page.dropped).toBe(197);
    journal.clear();
    expect(journal.read()).toEqual({ data: [], dropped: 0 });
    expect(journal.usage()).toMatchObject({ entries: 0, bytes: 0 });
    expect(() => createRequestJournal(0)).toThrow(RangeError);
    expect(() => createRequestJournal(1, 0)).toThrow(RangeError);
  });

  it('holds at most `maxBytes` by its own count, dropping the oldest entries to stay within it', () => {
    const one = journalEntryBytes(entry(1000, { method: 'POST' }), { text: 'x'.repeat(8192), json: false, truncated: true });
    const journal = createRequestJournal(1000, 10 * one);
    for (let n = 1; n <= 1000; n++) journal.record(entry(n, { method: 'POST', body: bytes('['.padEnd(65_536, '{},')) }));
    const usage = journal.usage();
    expect(usage.entries).toBe(10);
    expect(usage.bytes).toBeLessThanOrEqual(10 * one);
    const page = journal.read();
    expect(page.dropped).toBe(990);
    expect(page.data[0]).toMatchObject({ requestId: 'req_991', bodyTruncated: true });
    expect((page.data[0]!.body as string).length).toBe(8192);
  });

  it('keeps no body of GET, HEAD or DELETE, parses JSON and keeps other text', () => {
    const journal = createRequestJournal();
    for (const method of ['GET', 'HEAD', 'DELETE']) journal.record(entry(1, { method, body: bytes('x'.repeat(65_537)) }));
    journal.record(entry(2, { method: 'POST', body: bytes('{"a":1}') }));
    journal.record(entry(3, { method: 'PATCH', body: bytes('not json') }));
    expect(journal.read().data.map((e) => [e.body, e.bodyTruncated])).toEqual([
      [null, false],
      [null, false],
      [null, false],
      [{ a: 1 }, false],
      ['not json', false],
    ]);
    expect(journal.usage().bytes).toBeLessThan(5 * 1024);
  });

  it('hands out copies', () => {
    const journal = createRequestJournal();
    journal.record(entry(1, { method: 'POST', body: bytes('{"a":1}'), headers: { h: 'v' } }));
    const [first] = journal.read().data;
    (first!.body as { a: number }).a = 2;
    first!.headers.h = 'changed';
    expect(journal.read().data[0]).toMatchObject({ body: { a: 1 }, headers: { h: 'v' } });
  });
});
