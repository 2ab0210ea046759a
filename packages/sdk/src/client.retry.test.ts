import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADA, apiError, ID, json, KEY, scriptedFetch, settle, until } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';
import {
  ConflictError,
  ConnectionError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  UserAbortError,
} from './core/errors';
import type { LogEvent } from './core/logger';

const BODY = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(fetch: Fetch, options: { maxRetries?: number } = {}) {
  const retries: Array<Extract<LogEvent, { type: 'retry' }>> = [];
  const client = new CustomersClient({
    apiKey: KEY,
    fetch,
    ...options,
    logger: (e) => {
      if (e.type === 'retry') retries.push(e);
    },
  });
  return { client, retries };
}

const unavailable = () => apiError(503, 'Service Unavailable', 'try later');

beforeEach(() => {
  // setImmediate stays real so tests can let I/O settle without moving fake time.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('retry schedule (fake timers)', () => {
  it('waits out exponential backoff with full jitter between attempts', async () => {
    const { fetch, calls } = scriptedFetch([unavailable(), unavailable(), json(ADA)]);
    const { client, retries } = setup(fetch);
    const pending = client.customers.get(ID).result();

    await until(() => retries.length === 1);
    expect(retries[0]!.delayMs).toBe(250); // 0.5 (jitter) * 500 ms
    await vi.advanceTimersByTimeAsync(249);
    await settle();
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => retries.length === 2);
    expect(calls).toHaveLength(2);
    expect(retries[1]!.delayMs).toBe(500); // 0.5 * 1000 ms
    await vi.advanceTimersByTimeAsync(499);
    await settle();
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);

    const { data, error } = await pending;
    expect(error).toBeUndefined();
    expect(data).toEqual(ADA);
    expect(calls).toHaveLength(3);
    expect(retries.map((r) => r.reason)).toEqual(['status 503', 'status 503']);
  });

  it('gives up after maxRetries (default 2) and throws the last error', async () => {
    const { fetch, calls } = scriptedFetch([apiError(500, 'Internal Server Error', 'boom', { 'x-request-id': 'req_last' })]);
    const { client } = setup(fetch);
    const pending = client.customers.get(ID).result();
    await vi.runAllTimersAsync();
    const { error } = await pending;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error?.status).toBe(500);
    expect(error?.requestId).toBe('req_last');
    expect(calls).toHaveLength(3);
  });

  it('honours maxRetries per client and per call', async () => {
    const a = scriptedFetch([unavailable()]);
    const none = setup(a.fetch, { maxRetries: 0 }).client;
    await expect(none.customers.get(ID)).rejects.toBeInstanceOf(InternalServerError);
    expect(a.calls).toHaveLength(1);

    const b = scriptedFetch([unavailable()]);
    const four = setup(b.fetch, { maxRetries: 0 }).client.customers.get(ID, { maxRetries: 4 }).result();
    await vi.runAllTimersAsync();
    expect((await four).error).toBeInstanceOf(InternalServerError);
    expect(b.calls).toHaveLength(5);
  });

  it.each([
    [408, 'Request Timeout'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
    [502, 'Bad Gateway'],
    [503, 'Service Unavailable'],
    [504, 'Gateway Timeout'],
  ])('retries %i', async (status, reason) => {
    const { fetch, calls } = scriptedFetch([apiError(status, reason, 'x'), json(ADA)]);
    const pending = setup(fetch).client.customers.get(ID);
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual(ADA);
    expect(calls).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 413, 415, 422])('never retries %i', async (status) => {
    const { fetch, calls } = scriptedFetch([apiError(status, 'x', 'y'), json(ADA)]);
    const { client, retries } = setup(fetch);
    const result = await client.customers.update(ID, { status: 'suspended' }).result();
    expect(result.error?.status).toBe(status);
    expect(calls).toHaveLength(1);
    expect(retries).toHaveLength(0);
  });

  it('does not retry a 409 on create (it means the email is taken)', async () => {
    const { fetch, calls } = scriptedFetch([apiError(409, 'Conflict', 'A customer with email ada@example.com already exists')]);
    await expect(setup(fetch).client.customers.create(BODY)).rejects.toBeInstanceOf(ConflictError);
    expect(calls).toHaveLength(1);
  });

  it('retries connection failures and reports the last one as ConnectionError', async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:3000') });
    const { fetch, calls } = scriptedFetch([refused]);
    const { client, retries } = setup(fetch);
    const pending = client.customers.delete(ID).result();
    await vi.runAllTimersAsync();
    const { error } = await pending;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.status).toBeUndefined();
    expect(error?.cause).toBe(refused);
    expect(error?.message).toContain('attempt 3 of 3');
    expect(calls).toHaveLength(3);
    expect(retries.map((r) => r.reason)).toEqual(['ConnectionError', 'ConnectionError']);
  });

  it('retries GET, PATCH and DELETE', async () => {
    for (const call of [
      (c: CustomersClient) => c.customers.get(ID),
      (c: CustomersClient) => c.customers.update(ID, { first_name: 'Augusta' }),
      (c: CustomersClient) => c.customers.delete(ID),
    ]) {
      const { fetch, calls } = scriptedFetch([unavailable(), new Response(null, { status: 204 })]);
      const pending = call(setup(fetch).client).result();
      await vi.runAllTimersAsync();
      expect((await pending).error).toBeUndefined();
      expect(calls).toHaveLength(2);
    }
  });

  it('stops waiting and does not retry when the caller aborts during the backoff', async () => {
    const { fetch, calls } = scriptedFetch([unavailable(), json(ADA)]);
    const { client, retries } = setup(fetch);
    const controller = new AbortController();
    const pending = client.customers.get(ID, { signal: controller.signal }).result();
    await until(() => retries.length === 1);
    controller.abort();
    const { error } = await pending;
    expect(error).toBeInstanceOf(UserAbortError);
    await vi.runAllTimersAsync();
    expect(calls).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after-ms': '1500' }, 1500],
    [{ 'retry-after': 'Wed, 25 Nov 2026 10:00:07 GMT' }, 7000],
  ])('waits exactly what %o asks', async (headers, wait) => {
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'));
    const { fetch, calls } = scriptedFetch([apiError(429, 'Too Many Requests', 'slow down', headers), json(ADA)]);
    const { client, retries } = setup(fetch);
    const pending = client.customers.get(ID);
    await until(() => retries.length === 1);
    expect(retries[0]!.delayMs).toBe(wait);
    await vi.advanceTimersByTimeAsync(wait - 1);
    await settle();
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toEqual(ADA);
    expect(calls).toHaveLength(2);
  });

  it('falls back to backoff when Retry-After is over 60 s, and ends in RateLimitError', async () => {
    const { fetch } = scriptedFetch([apiError(429, 'Too Many Requests', 'slow down', { 'retry-after': '3600' })]);
    const { client, retries } = setup(fetch);
    const pending = client.customers.get(ID).result();
    await vi.runAllTimersAsync();
    expect((await pending).error).toBeInstanceOf(RateLimitError);
    expect(retries.map((r) => r.delayMs)).toEqual([250, 500]);
  });
});

describe('idempotent creates', () => {
  it('sends a UUID Idempotency-Key and reuses it, with the same body, on every retry', async () => {
    const { fetch, calls } = scriptedFetch([unavailable(), new TypeError('fetch failed'), json(ADA, 201)]);
    const pending = setup(fetch).client.customers.create(BODY);
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual(ADA);
    expect(calls).toHaveLength(3);
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    for (const call of calls) {
      expect(call.method).toBe('POST');
      expect(JSON.parse(call.body!)).toEqual(BODY);
      expect(call.headers.get('content-type')).toBe('application/json');
    }
  });

  it("uses the caller's key verbatim", async () => {
    const { fetch, calls } = scriptedFetch([unavailable(), json(ADA, 201)]);
    const pending = setup(fetch).client.customers.create(BODY, { idempotencyKey: 'signup-42' });
    await vi.runAllTimersAsync();
    await pending;
    expect(calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['signup-42', 'signup-42']);
  });

  it('uses a new key for each create call', async () => {
    const { fetch, calls } = scriptedFetch([json(ADA, 201)]);
    const { client } = setup(fetch);
    await client.customers.create(BODY);
    await client.customers.create(BODY);
    expect(calls[0]!.headers.get('idempotency-key')).not.toBe(calls[1]!.headers.get('idempotency-key'));
  });

  it('does not retry a non-2xx it must not retry, even with a key (404 on get for comparison)', async () => {
    const { fetch, calls } = scriptedFetch([apiError(404, 'Not Found', 'Customer not found')]);
    await expect(setup(fetch).client.customers.get(ID)).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toHaveLength(1);
  });
});
