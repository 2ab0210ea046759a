import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADA, BASE_URL, hangingFetch, ID, json, KEY, settle, until } from '../test/helpers/fixtures';
import { CustomersClient, type Fetch } from './client';
import { ConnectionError, TimeoutError, UserAbortError } from './core/errors';

describe('timeouts and aborts (fake timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function fake() {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
  }

  it('times out an attempt after the default 60 s', async () => {
    fake();
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch, maxRetries: 0 });
    const pending = client.customers.get(ID).result();
    await until(() => hang.calls() === 1);
    await vi.advanceTimersByTimeAsync(59_999);
    await settle();
    let done = false;
    void pending.then(() => (done = true));
    await settle();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error?.message).toContain('timed out after 60000 ms');
    expect(hang.calls()).toBe(1);
  });

  it('honours a per-call timeout and retries timeouts', async () => {
    fake();
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch });
    const pending = client.customers.get(ID, { timeout: 1_000 }).result();
    await until(() => hang.calls() === 1);
    await vi.advanceTimersByTimeAsync(999);
    await settle();
    expect(hang.calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1); // attempt 1 times out
    await settle();
    await vi.advanceTimersByTimeAsync(250); // backoff 0.5 * 500 ms
    await until(() => hang.calls() === 2);
    await vi.runAllTimersAsync();
    const { error } = await pending;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.message).toContain('timed out after 1000 ms (attempt 3 of 3)');
    expect(hang.calls()).toBe(3);
  });

  it('succeeds when a retry answers after a timed-out attempt', async () => {
    fake();
    let n = 0;
    const hang = hangingFetch();
    const fetch: Fetch = (input, init) => (++n === 1 ? hang.fetch(input, init) : Promise.resolve(json(ADA)));
    const client = new CustomersClient({ apiKey: KEY, fetch, timeout: 5_000 });
    const pending = client.customers.get(ID);
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual(ADA);
    expect(n).toBe(2);
  });

  it('turns a caller abort into UserAbortError and never retries it', async () => {
    fake();
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch, maxRetries: 5 });
    const controller = new AbortController();
    const pending = client.customers.delete(ID, { signal: controller.signal }).result();
    await settle();
    controller.abort(new Error('user left'));
    const { error } = await pending;
    expect(error).toBeInstanceOf(UserAbortError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error?.cause as Error).message).toBe('user left');
    await vi.runAllTimersAsync();
    expect(hang.calls()).toBe(1);
  });

  it('does not send anything when the signal is already aborted', async () => {
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch });
    const { error } = await client.customers.get(ID, { signal: AbortSignal.abort() }).result();
    expect(error).toBeInstanceOf(UserAbortError);
    expect(hang.calls()).toBe(0);
  });
});

describe('timeouts against MSW', () => {
  const server = setupServer(
    http.get(`${BASE_URL}/api/customers/:id`, async () => {
      await delay('infinite');
      return HttpResponse.json(ADA);
    }),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('reports a server that never answers as TimeoutError', async () => {
    const client = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, timeout: 20, maxRetries: 0 });
    await expect(client.customers.get(ID)).rejects.toBeInstanceOf(TimeoutError);
  });

  it('reports a caller abort as UserAbortError', async () => {
    const client = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL });
    const controller = new AbortController();
    // Abort once the request has reached the server (not after a guessed delay, which a loaded machine can outrun).
    server.events.on('request:start', () => controller.abort());
    const pending = client.customers.get(ID, { signal: controller.signal });
    await expect(pending).rejects.toBeInstanceOf(UserAbortError);
    server.events.removeAllListeners('request:start');
  });
});
