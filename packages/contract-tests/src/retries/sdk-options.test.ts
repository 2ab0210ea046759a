import { createMockServer } from '@customers-api/mock-server';
import { CustomersClient, RateLimitError, VERSION, type RetryEvent } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerTarget } from '../targets/server-target.js';
import { startFaultyProxy, type FaultyProxy } from './faulty-proxy.js';

// The SDK's options and hooks end to end: against the reference server (SQLite) and the stateful HTTP mock, each
// limited to 1 request per second per seller so a retry with real RateLimit headers happens; a recording proxy in
// front shows what reached the target.
interface Upstream {
  name: string;
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

async function referenceServer(): Promise<Upstream> {
  const server = await startServerTarget('sqlite', undefined, { rateLimit: { perSecond: 1 } });
  const { key } = await server.newSeller();
  return { name: 'the reference server (SQLite)', baseUrl: server.baseUrl, key, close: () => server.close() };
}

async function httpMock(): Promise<Upstream> {
  const mock = await createMockServer({ rateLimit: 1 });
  const baseUrl = await mock.listen(0);
  return { name: 'the stateful HTTP mock', baseUrl, key: `sk_live_${'m'.repeat(48)}`, close: () => mock.close() };
}

describe.each([
  ['the reference server (SQLite)', referenceServer],
  ['the stateful HTTP mock', httpMock],
] as const)('SDK options and hooks against %s', (_name, start) => {
  let upstream: Upstream;
  let proxy: FaultyProxy;
  let client: CustomersClient;

  beforeAll(async () => {
    upstream = await start();
    proxy = await startFaultyProxy(upstream.baseUrl, () => 'pass');
    client = new CustomersClient({ apiKey: upstream.key, baseUrl: proxy.url, maxRetries: 3 });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it('sends User-Agent and the X-Customers-Sdk-* headers, which the target accepts', async () => {
    proxy.seen.length = 0;
    const response = await client.customers.list({ limit: 1 }).asResponse();
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(false); // asResponse: unread
    expect(await response.json()).toMatchObject({ data: expect.any(Array), has_more: expect.any(Boolean) });
    const headers = proxy.seen.at(-1)!.headers;
    expect(headers['user-agent']).toBe(`customers-api-sdk/${VERSION}`);
    expect(headers['x-customers-sdk-version']).toBe(VERSION);
    expect(headers['x-customers-sdk-runtime']).toBe('node');
    expect(headers['x-customers-sdk-runtime-version']).toBe(process.versions.node);
  });

  it('hooks: onRequest changes headers the target sees, onResponse and onRetry see a real 429 and its RateLimit', async () => {
    const retries: RetryEvent[] = [];
    const statuses: number[] = [];
    const hooked = client.withOptions({
      hooks: {
        onRequest: ({ headers, attempt }) => headers.set('X-Request-Id', `hooked-${attempt}`),
        onResponse: ({ response }) => void statuses.push(response.status),
        onRetry: (event) => void retries.push(event),
      },
    });
    proxy.seen.length = 0;
    // Three calls at once against a limit of 1/s: they span at most two windows, so at least one is refused, then
    // retried after Retry-After.
    const list = () => hooked.customers.list({ limit: 1 });
    await Promise.all([list(), list(), list()]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(retries.length).toBe(statuses.filter((s) => s === 429).length);
    const [retry] = retries;
    expect(retry!.error).toBeInstanceOf(RateLimitError);
    expect(retry!.attempt).toBe(1);
    expect(retry!.delayMs).toBeGreaterThan(0);
    expect(retry!.delayMs).toBeLessThanOrEqual(1000);
    expect(retry!.rateLimit).toMatchObject({ policy: 'seller', remaining: 0, limit: 1 });
    expect(proxy.seen.map((r) => r.headers['x-request-id'])).toEqual(expect.arrayContaining(['hooked-1', 'hooked-2']));
    const retried = retries.find((r) => r.response !== undefined)!;
    expect(retried.response!.status).toBe(429);
  });

  it('withOptions: a new client with other headers and timeout, the original unchanged', async () => {
    const traced = client.withOptions({ defaultHeaders: { 'X-Request-Id': 'with-options' }, timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a fresh rate-limit window
    const { requestId } = await traced.customers.list({ limit: 1 }).withResponse();
    expect(requestId).toBe('with-options'); // the target echoes the request id it was sent
    expect([traced.timeout, client.timeout]).toEqual([5_000, 60_000]);
  });

  it('toArray stops requesting pages at its cap', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const unlimited = new CustomersClient({ apiKey: upstream.key, baseUrl: proxy.url, maxRetries: 5 });
    for (const n of [1, 2, 3, 4, 5]) {
      await unlimited.customers.create({ first_name: 'Page', last_name: `N${n}`, email: `page${n}@example.com` });
    }
    proxy.seen.length = 0;
    const items = await unlimited.customers.list({ limit: 2 }).toArray({ limit: 3 });
    expect(items).toHaveLength(3);
    const lists = proxy.seen.filter((r) => r.method === 'GET');
    expect(lists.filter((r) => r.fault === 'pass').length - retriesOf(lists)).toBe(2); // pages 1 and 2, never page 3
  });
});

/** GET requests repeated after a 429 are retries of the same page, not further pages. */
function retriesOf(requests: FaultyProxy['seen']): number {
  const paths = requests.map((r) => r.path);
  return paths.length - new Set(paths).size;
}

describe('the stateful HTTP mock and browsers', () => {
  it("lets a browser send the SDK's headers: the CORS preflight allows them", async () => {
    const mock = await createMockServer();
    const baseUrl = await mock.listen(0);
    try {
      const requested = 'x-api-key, x-customers-sdk-version, x-customers-sdk-runtime, x-customers-sdk-runtime-version';
      const preflight = await fetch(`${baseUrl}/api/customers`, {
        method: 'OPTIONS',
        headers: { Origin: 'http://app.test', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': requested },
      });
      expect(preflight.status).toBe(204);
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(requested.split(', ')));
    } finally {
      await mock.close();
    }
  });
});
