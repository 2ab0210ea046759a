import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, apiError, ID, json, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import { ConnectionError, InternalServerError, RateLimitError } from './core/errors';
import type { RetryEvent } from './core/hooks';

afterEach(() => vi.restoreAllMocks());

const limited = () =>
  apiError(429, 'Too Many Requests', 'slow down', {
    'retry-after-ms': '0',
    ratelimit: '"seller";r=0;t=1',
    'ratelimit-policy': '"seller";q=100;w=1',
  });

describe('hooks', () => {
  it('onRequest sees each attempt before it is sent and may change its headers', async () => {
    const { fetch, calls } = scriptedFetch([limited(), json(ADA)]);
    const seen: Array<[number, string | null]> = [];
    const client = new CustomersClient({
      apiKey: KEY,
      fetch,
      hooks: {
        onRequest: async ({ attempt, headers, method, url }) => {
          seen.push([attempt, headers.get('x-api-key') && `${method} ${url}`]);
          headers.set('traceparent', `00-trace-${attempt}`);
        },
      },
    });
    await client.customers.get(ID);
    expect(seen).toEqual([
      [1, `GET http://127.0.0.1:3000/api/customers/${ID}`],
      [2, `GET http://127.0.0.1:3000/api/customers/${ID}`],
    ]);
    expect(calls.map((c) => c.headers.get('traceparent'))).toEqual(['00-trace-1', '00-trace-2']);
  });

  it('onResponse runs after every attempt that got a response, with its duration', async () => {
    const { fetch } = scriptedFetch([new TypeError('fetch failed'), limited(), json(ADA)]);
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const statuses: number[] = [];
    const client = new CustomersClient({
      apiKey: KEY,
      fetch,
      hooks: {
        onResponse: ({ response, durationMs, attempt }) => {
          expect(durationMs).toBeGreaterThanOrEqual(0);
          statuses.push(attempt * 1000 + response.status);
        },
      },
    });
    await client.customers.get(ID);
    expect(statuses).toEqual([2429, 3200]);
  });

  it('onRetry gets the failed attempt, the delay, the error it would have thrown and the parsed RateLimit', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { fetch } = scriptedFetch([limited(), new TypeError('fetch failed'), json(ADA)]);
    const retries: RetryEvent[] = [];
    const client = new CustomersClient({ apiKey: KEY, fetch, hooks: { onRetry: (event) => void retries.push(event) } });
    await client.customers.get(ID);
    expect(retries).toHaveLength(2);
    const [first, second] = retries as [RetryEvent, RetryEvent];
    expect(first).toMatchObject({ attempt: 1, delayMs: 0, method: 'GET' });
    expect(first.error).toBeInstanceOf(RateLimitError);
    expect(first.error.status).toBe(429);
    expect(first.response?.status).toBe(429);
    expect(first.rateLimit).toEqual({ policy: 'seller', remaining: 0, resetSeconds: 1, limit: 100 });
    expect(second).toMatchObject({ attempt: 2, delayMs: 0, response: undefined, rateLimit: undefined });
    expect(second.error).toBeInstanceOf(ConnectionError);
  });

  it('a hook that throws fails the call with its error, without retrying', async () => {
    const boom = new Error('hook failed');
    for (const hooks of [{ onRequest: () => Promise.reject(boom) }, { onResponse: () => { throw boom; } }, { onRetry: () => { throw boom; } }]) {
      const { fetch, calls } = scriptedFetch([apiError(503, 'Service Unavailable', 'later', { 'retry-after-ms': '0' }), json(ADA)]);
      const client = new CustomersClient({ apiKey: KEY, fetch, hooks });
      await expect(client.customers.get(ID)).rejects.toBe(boom);
      expect(calls.length).toBeLessThanOrEqual(1);
    }
  });
});

describe('x-should-retry', () => {
  it('false stops a retry the status would have allowed', async () => {
    const { fetch, calls } = scriptedFetch([apiError(503, 'Service Unavailable', 'down', { 'x-should-retry': 'false' }), json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    await expect(client.customers.get(ID)).rejects.toBeInstanceOf(InternalServerError);
    expect(calls).toHaveLength(1);
  });

  it('true retries a status that is otherwise final (within maxRetries), and is ignored on a success', async () => {
    const { fetch, calls } = scriptedFetch([
      apiError(409, 'Conflict', 'busy', { 'x-should-retry': 'true', 'retry-after-ms': '0' }),
      json(ADA, 200, { 'x-should-retry': 'true' }),
    ]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    await expect(client.customers.update(ID, { status: 'active' })).resolves.toEqual(ADA);
    expect(calls).toHaveLength(2);
    const once = scriptedFetch([apiError(400, 'Bad Request', 'no', { 'x-should-retry': 'true', 'retry-after-ms': '0' })]);
    await expect(new CustomersClient({ apiKey: KEY, fetch: once.fetch, maxRetries: 1 }).customers.get(ID)).rejects.toThrow('400 Bad Request');
    expect(once.calls).toHaveLength(2);
  });
});

describe('withOptions', () => {
  it('makes a new client over this one: same key, the given options replaced, the original unchanged', async () => {
    const { fetch, calls } = scriptedFetch([json(ADA)]);
    const client = new CustomersClient({ apiKey: KEY, fetch, timeout: 1000, defaultHeaders: { 'X-Team': 'a' } });
    const other = client.withOptions({ timeout: 5000, maxRetries: 0, baseUrl: 'https://api.example.com' });
    expect(other).toBeInstanceOf(CustomersClient);
    expect(other).not.toBe(client);
    expect([other.timeout, other.maxRetries, other.baseUrl]).toEqual([5000, 0, 'https://api.example.com']);
    expect([client.timeout, client.maxRetries, client.baseUrl]).toEqual([1000, 2, 'http://127.0.0.1:3000']);
    await other.customers.get(ID);
    expect(calls[0]!.url).toBe(`https://api.example.com/api/customers/${ID}`);
    expect(calls[0]!.headers.get('x-api-key')).toBe(KEY);
    expect(calls[0]!.headers.get('x-team')).toBe('a');
    expect(JSON.stringify(other)).not.toContain(KEY);
  });

  it('checks the new options like the constructor does', () => {
    const client = new CustomersClient({ apiKey: KEY });
    expect(() => client.withOptions({ timeout: 0 })).toThrow('timeout must be a finite number of at least 1, got 0.');
    expect(() => client.withOptions({ apiKey: 'sk_live_short' })).toThrow('Malformed API key');
  });
});

describe('asResponse', () => {
  it('resolves with the response, its body unread', async () => {
    const { fetch } = scriptedFetch([json(ADA, 200, { 'x-request-id': 'req_raw' })]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    const response = await client.customers.get(ID).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('x-request-id')).toBe('req_raw');
    expect(await response.json()).toEqual(ADA);
  });

  it('works for lists and findByEmail too, and a status error still rejects with its class', async () => {
    const page = { data: [ADA], has_more: false, next_cursor: null };
    const { fetch } = scriptedFetch([json(page), json(page), apiError(404, 'Not Found', 'Customer not found')]);
    const client = new CustomersClient({ apiKey: KEY, fetch });
    expect(await (await client.customers.list().asResponse()).json()).toEqual(page);
    expect((await client.customers.findByEmail('ada@example.com').asResponse()).bodyUsed).toBe(false);
    await expect(client.customers.get(ID).asResponse()).rejects.toThrow('404 Not Found: Customer not found.');
  });
});
