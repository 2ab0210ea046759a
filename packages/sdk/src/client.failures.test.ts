import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, hangingFetch, ID, json, KEY, scriptedFetch, until } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';
import { ConnectionError, TimeoutError } from './core/errors';
import type { LogEvent } from './core/logger';

const URL = `http://127.0.0.1:3000/api/customers/${ID}`;

afterEach(() => {
  vi.useRealTimers();
});

/** What `client.customers.get(ID)` rejects with, one attempt, for a `fetch` that fails this way. */
async function failureOf(fetch: Fetch): Promise<Error> {
  const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 0 });
  return client.customers.get(ID).then(
    () => expect.unreachable('answered'),
    (e: unknown) => e as Error,
  );
}

describe('a ConnectionError says what failed', () => {
  it('with the cause undici hides in `cause` (connect ECONNREFUSED ...)', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
    const error = await failureOf(scriptedFetch([refused]).fetch);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `GET ${URL} failed without a response (attempt 1 of 1): fetch failed (connect ECONNREFUSED 127.0.0.1:3000). Check baseUrl and the network.`,
    );
    expect(error.cause).toBe(refused);
  });

  it('once, when there is no cause, the cause is no Error, or it says the same', async () => {
    for (const thrown of [
      new TypeError('fetch failed'),
      new TypeError('fetch failed', { cause: 'ECONNRESET' }),
      new TypeError('fetch failed', { cause: new Error('fetch failed') }),
    ]) {
      const error = await failureOf(scriptedFetch([thrown]).fetch);
      expect(error.message, String(thrown.cause)).toBe(
        `GET ${URL} failed without a response (attempt 1 of 1): fetch failed. Check baseUrl and the network.`,
      );
    }
  });

  it('for a custom fetch that rejects with something other than an Error', async () => {
    const error = await failureOf(() => Promise.reject('socket hang up' as unknown as Error));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `GET ${URL} failed without a response (attempt 1 of 1): socket hang up. Check baseUrl and the network.`,
    );
    expect(error.cause).toBe('socket hang up');
  });
});

describe('a TimeoutError', () => {
  it("keeps the attempt's abort as its cause", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch, maxRetries: 0, timeout: 1_000 });
    const pending = client.customers.get(ID).result();
    await until(() => hang.calls() === 1);
    await vi.advanceTimersByTimeAsync(1_000);
    const { error } = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.message).toBe(
      `GET ${URL} timed out after 1000 ms (attempt 1 of 1). Raise the timeout option or check the server.`,
    );
    expect(error?.cause).toBeInstanceOf(DOMException);
    expect((error?.cause as DOMException).name).toBe('AbortError');
  });
});

describe('a request that is never sent', () => {
  it('rejects with the error of a body JSON cannot serialize, sends nothing and does not retry', async () => {
    const { fetch, calls } = scriptedFetch([json(ADA, 201)]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 2 });
    const body = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', visits: 1n };
    const error = await client.customers.create(body as never).then(
      () => expect.unreachable('sent'),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/BigInt/);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(calls).toHaveLength(0);
  });
});

describe('the response event', () => {
  it('reports how long the answer took (durationMs), from sending to the response', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const events: LogEvent[] = [];
    const fetch: Fetch = () => new Promise((resolve) => setTimeout(() => resolve(json(ADA)), 120));
    const client = new CustomersClient({ apiKey: KEY, fetch, logger: (e) => events.push(e) });
    const pending = client.customers.get(ID);
    await until(() => events.length === 1);
    await vi.advanceTimersByTimeAsync(120);
    await expect(pending).resolves.toEqual(ADA);
    expect(events.map((e) => e.type)).toEqual(['request', 'response']);
    expect(events[1]).toMatchObject({ type: 'response', status: 200, durationMs: 120 });
  });
});
