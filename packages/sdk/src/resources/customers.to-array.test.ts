import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEY } from '../../test/helpers/fixtures';
import { customers, type ListServer, startListServer } from '../../test/helpers/list-server';
import { CustomersClient } from '../client';
import { TO_ARRAY_MAX } from '../core/pagination';

// toArray against a real HTTP server that pages like openapi.yaml says; its request log counts the pages fetched.
const ALL = customers(7);
let server: ListServer;
let client: CustomersClient;

beforeAll(async () => {
  server = await startListServer(ALL);
  client = new CustomersClient({ apiKey: KEY, baseUrl: server.baseUrl });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe('list(...).toArray({ limit })', () => {
  it('collects every item across pages when the list is shorter than the limit', async () => {
    const items = await client.customers.list({ limit: 3 }).toArray({ limit: 100 });
    expect(items.map((c) => c.id)).toEqual(ALL.map((c) => c.id));
    expect(server.requests).toHaveLength(3); // 3 + 3 + 1
  });

  it('stops at the cap: no page is fetched once `limit` items are collected', async () => {
    const items = await client.customers.list({ limit: 2 }).toArray({ limit: 4 });
    expect(items.map((c) => c.id)).toEqual(ALL.slice(0, 4).map((c) => c.id));
    expect(server.requests).toHaveLength(2); // the third page (has_more was true) is never requested
  });

  it('cuts a page short rather than returning more than `limit` items', async () => {
    const items = await client.customers.list({ limit: 3 }).toArray({ limit: 5 });
    expect(items).toHaveLength(5);
    expect(server.requests).toHaveLength(2);
  });

  it('takes the bounds themselves: limit 1 gives the first item from one page, 10,000 every item', async () => {
    const one = await client.customers.list({ limit: 3 }).toArray({ limit: 1 });
    expect(one.map((c) => c.id)).toEqual([ALL[0]!.id]);
    expect(server.requests).toHaveLength(1);
    expect(await client.customers.list({ limit: 3 }).toArray({ limit: TO_ARRAY_MAX })).toHaveLength(ALL.length);
  });

  it('rejects with a TypeError for a limit that is missing, not an integer, below 1 or above 10,000', async () => {
    expect(TO_ARRAY_MAX).toBe(10_000);
    for (const limit of [0, -1, 1.5, Number.NaN, 10_001, '5']) {
      const promise = client.customers.list().toArray({ limit } as unknown as { limit: number });
      await expect(promise, String(limit)).rejects.toThrow(TypeError);
      await expect(promise, String(limit)).rejects.toThrow(`toArray: limit must be an integer from 1 to 10000, got ${String(limit)}.`);
    }
    await expect(client.customers.list({ limit: 1 }).toArray({ limit: 10_000 })).resolves.toHaveLength(7);
  });

  it('says a limit is required when called without one, as plain JavaScript may (no "Cannot destructure")', async () => {
    const required = 'toArray: a limit is required, such as toArray({ limit: 500 }) (1 to 10000); use for await...of to walk every page.';
    const untyped = client.customers.list() as unknown as { toArray(options?: unknown): Promise<unknown> };
    await expect(untyped.toArray()).rejects.toThrow(new TypeError(required));
    await expect(untyped.toArray({})).rejects.toThrow(new TypeError(required));
  });

  it('a refused limit leaves no unhandled rejection behind when the first page fails too', async () => {
    // The first page's fetch fails when the test says so, after the refusal: no wall-clock wait decides the verdict.
    let failFetch = (_error: Error) => {};
    let fetched = 0;
    const fetch = () => new Promise<Response>((_resolve, reject) => ((failFetch = reject), fetched++));
    const failing = new CustomersClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:1', maxRetries: 0, fetch });
    let unhandled: unknown;
    const onUnhandled = (reason: unknown) => (unhandled = reason);
    process.on('unhandledRejection', onUnhandled);
    await expect(failing.customers.list().toArray({ limit: 0 })).rejects.toThrow(TypeError);
    failFetch(new TypeError('fetch failed'));
    // Node reports unhandled rejections once the microtask queue drains: two turns of the event loop are past that.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(fetched).toBe(1);
    expect(unhandled).toBeUndefined();
  });
});
