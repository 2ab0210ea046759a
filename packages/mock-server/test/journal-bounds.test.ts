// The journal is bounded and keeps no credential: a page that can send simple requests cannot grow the mock, and
// GET /__mock/requests never hands out a password, a cookie or the control token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_JOURNAL_MEMORY_BYTES, type JournalEntry } from '@customers-api/core';
import { createMockServer, type MockServer } from '../src/index.js';
import { key, raw } from './support.js';

const TOKEN = 'a-control-token-of-32-characters';
let mock: MockServer;
let url: string;

beforeAll(async () => {
  mock = await createMockServer({ controlToken: TOKEN });
  url = await mock.listen(0);
});
afterAll(() => mock.close());

const journal = async (): Promise<{ data: JournalEntry[]; dropped: number }> =>
  JSON.parse((await raw(`${url}/__mock/requests`, 'GET', { Authorization: `Bearer ${TOKEN}` })).text);

describe('the request journal', () => {
  it('holds at most its documented memory after 1,000 requests of 64 KiB bodies, each kept as 8 KiB marked truncated', async () => {
    const json = `[${'{},'.repeat(21_844)}{}]`.padEnd(65_536, ' ');
    const text = 'x'.repeat(65_536);
    for (let round = 0; round < 100; round++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          n % 3 === 0
            ? raw(`${url}/api/customers`, 'POST', { 'Content-Type': 'text/plain' }, text) // keyless, what any page can send
            : raw(`${url}/api/customers`, 'POST', { 'Content-Type': 'application/json', 'X-API-Key': key('a') }, json),
        ),
      );
    }
    const usage = mock.api.journalUsage();
    expect(usage.maxBytes).toBe(DEFAULT_JOURNAL_MEMORY_BYTES);
    expect(usage.bytes).toBeLessThanOrEqual(DEFAULT_JOURNAL_MEMORY_BYTES);
    const { data, dropped } = await journal();
    expect(data.length + dropped).toBe(1000);
    expect(data.length).toBe(usage.entries);
    for (const entry of data) {
      expect(entry.bodyTruncated).toBe(true);
      expect((entry.body as string).length).toBe(8192);
    }
  });

  it('keeps no body of a GET or DELETE (the API never reads it)', async () => {
    await raw(`${url}/api/customers`, 'GET', { 'X-API-Key': key('a'), 'Content-Type': 'application/json' }, 'x'.repeat(65_537));
    await raw(`${url}/api/customers/x`, 'DELETE', { 'X-API-Key': key('a'), 'Content-Type': 'application/json' }, '{"a":1}');
    const [get, del] = (await journal()).data.slice(-2);
    expect([get!.method, get!.body, del!.method, del!.body]).toEqual(['GET', null, 'DELETE', null]);
  });

  it('redacts a cookie, other Authorization schemes and the control token whole, and keeps an API key’s prefix', async () => {
    const sent: Record<string, string>[] = [
      { Cookie: 'session=s3cret-session' },
      { Authorization: 'Basic dXNlcjpzM2NyZXQtcGFzc3dvcmQ=' },
      { Authorization: `Bearer ${TOKEN}` },
      { 'X-API-Key': TOKEN },
      { Authorization: `Bearer ${key('b')}` },
    ];
    for (const headers of sent) await raw(`${url}/api/customers`, 'GET', headers);
    const entries = (await journal()).data.slice(-5).map((entry) => entry.headers);
    expect(entries.map((headers) => headers.cookie ?? headers.authorization ?? headers['x-api-key'])).toEqual([
      '[redacted]',
      '[redacted]',
      '[redacted]',
      '[redacted]',
      `Bearer ${key('b').slice(0, 12)}…`,
    ]);
    const text = JSON.stringify(entries);
    for (const secret of ['s3cret', 'dXNlcjpzM2NyZXQ', TOKEN.slice(0, 8)]) expect(text).not.toContain(secret);
  });
});
