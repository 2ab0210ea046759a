import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, hangingFetch, ID, json, KEY, scriptedFetch, until } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import { ConnectionError, InternalServerError, UserAbortError } from './core/errors';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('after each attempt', () => {
  it('clears the attempt timer, so no 60 s timer outlives a request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { fetch } = scriptedFetch([json(ADA), json({ error: 'Not Found', message: 'Customer not found' }, 404), new TypeError('fetch failed')]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 0 });
    expect(await client.customers.get(ID)).toEqual(ADA);
    expect(vi.getTimerCount()).toBe(0);
    await expect(client.customers.get(ID)).rejects.toMatchObject({ status: 404 });
    expect(vi.getTimerCount()).toBe(0);
    await expect(client.customers.get(ID)).rejects.toBeInstanceOf(ConnectionError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("removes its listener from the caller's signal, whatever the outcome", async () => {
    const signal = new AbortController().signal;
    const add = vi.spyOn(signal, 'addEventListener');
    const remove = vi.spyOn(signal, 'removeEventListener');
    const { fetch } = scriptedFetch([json(ADA), new TypeError('fetch failed')]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 0 });
    await client.customers.get(ID, { signal });
    await expect(client.customers.get(ID, { signal })).rejects.toBeInstanceOf(ConnectionError);
    const added = add.mock.calls.filter(([type]) => type === 'abort').map(([, listener]) => listener);
    expect(added).toHaveLength(2);
    expect(remove.mock.calls.filter(([type]) => type === 'abort').map(([, listener]) => listener)).toEqual(added);
  });
});

describe('answers that are not failures of the network', () => {
  it('rejects a 2xx body that is not JSON with its SyntaxError, once, without retrying', async () => {
    const { fetch, calls } = scriptedFetch([new Response('<html>ok</html>', { status: 200, headers: { 'content-type': 'application/json' } })]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 2 });
    const error = await client.customers.get(ID).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SyntaxError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(calls).toHaveLength(1);
  });
});

describe('a caller abort during the last attempt', () => {
  it('rejects with UserAbortError (not a connection error) and sends nothing more', async () => {
    const hang = hangingFetch();
    let attempts = 0;
    const fetch = (url: string, init: RequestInit) => (++attempts === 1 ? Promise.resolve(json({ error: 'Service Unavailable', message: 'x' }, 503, { 'retry-after-ms': '0' })) : hang.fetch(url, init));
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 1 });
    const controller = new AbortController();
    const pending = client.customers.get(ID, { signal: controller.signal }).result();
    await until(() => hang.calls() === 1);
    controller.abort();
    const { error } = await pending;
    expect(error).toBeInstanceOf(UserAbortError);
    expect(error).not.toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect(attempts).toBe(2);
  });
});
