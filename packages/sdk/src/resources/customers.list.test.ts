import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { KEY, until } from '../../test/helpers/fixtures';
import { customers, type ListServer, startListServer } from '../../test/helpers/list-server';
import { CustomersClient } from '../client';
import { BadRequestError, InternalServerError, TimeoutError, UserAbortError } from '../core/errors';
import { CursorPage, PagePromise } from '../core/pagination';
import type { CustomerListParams } from './customer-list-params';

// list() and findByEmail() against a real HTTP server that pages like openapi.yaml says (test/helpers/list-server).
const ALL = customers(5);
let server: ListServer;
let client: CustomersClient;

beforeAll(async () => {
  server = await startListServer(ALL);
  client = new CustomersClient({ apiKey: KEY, baseUrl: server.baseUrl });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.plan = [];
  vi.spyOn(Math, 'random').mockReturnValue(0); // zero backoff: retries without real sleeping
});
afterEach(() => {
  vi.restoreAllMocks();
});

const queries = () => server.requests.map((r) => r.url.replace('/api/customers', ''));
const ids = (items: Array<{ id: string }>) => items.map((c) => c.id);

describe('client.customers.list', () => {
  it('resolves to the first page: the API fields plus hasNextPage()', async () => {
    const promise = client.customers.list({ limit: 2 });
    expect(promise).toBeInstanceOf(PagePromise);
    const page = await promise;
    expect(page).toBeInstanceOf(CursorPage);
    expect(page.data).toEqual(ALL.slice(0, 2));
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(page.hasNextPage()).toBe(true);
    expect(queries()).toEqual(['?limit=2']);
  });

  it('getNextPage() repeats the filters with the cursor, and may change the limit for the pages after it', async () => {
    const first = await client.customers.list({ status: 'active', limit: 1 });
    const second = await first.getNextPage({ limit: 5 });
    expect(ids(second.data)).toEqual(ids([ALL[2]!, ALL[4]!]));
    expect(second.hasNextPage()).toBe(false);
    expect(second.next_cursor).toBeNull();
    expect(() => second.getNextPage()).toThrow(/last page/);
    expect(queries()).toEqual(['?status=active&limit=1', `?status=active&limit=5&cursor=${first.next_cursor}`]);
  });

  it('iterates every customer of every page, with for await', async () => {
    const seen = [];
    for await (const customer of client.customers.list({ limit: 2 })) seen.push(customer);
    expect(seen).toEqual(ALL);
    expect(server.requests).toHaveLength(3);
  });

  it('iterates on from a page whose limit changed, over three pages in all', async () => {
    const first = await client.customers.list({ limit: 1, created_before: new Date(ALL[0]!.created_at) });
    const rest = [];
    for await (const customer of await first.getNextPage({ limit: 2 })) rest.push(customer);
    expect(ids([...first.data, ...rest])).toEqual(ids(ALL.slice(1)));
    expect(queries().map((q) => new URLSearchParams(q).get('limit'))).toEqual(['1', '2', '2']);
    expect(new URLSearchParams(queries()[0]).get('created_before')).toBe(ALL[0]!.created_at);
  });

  it('later pages repeat the filters as they were at the call, even if the caller changes the object', async () => {
    const params: CustomerListParams = { status: 'active', limit: 1 };
    const first = await client.customers.list(params);
    params.status = 'inactive';
    expect(ids((await first.getNextPage()).data)).toEqual([ALL[2]!.id]);
  });

  it('iterPages() yields each page once', async () => {
    const first = await client.customers.list({ limit: 2 });
    const sizes = [];
    for await (const page of first.iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('sends a Date as its ISO string and a string as it is', async () => {
    await client.customers.list({ created_after: new Date(Date.UTC(2026, 10, 25, 11, 57)), created_before: '2026-11-25T12:00:00Z' });
    expect(queries()).toEqual(['?created_after=2026-11-25T11%3A57%3A00.000Z&created_before=2026-11-25T12%3A00%3A00Z']);
  });

  it('keeps withResponse() and result()', async () => {
    const { data, response, requestId } = await client.customers.list({ limit: 1 }).withResponse();
    expect(data.hasNextPage()).toBe(true);
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_1');
    const { data: page, error } = await client.customers.list({ status: 'suspended' }).result();
    expect(error).toBeUndefined();
    expect(page?.data).toEqual([]);
  });

  it('surfaces a 400 for a bad parameter as BadRequestError, from await and from for await', async () => {
    await expect(client.customers.list({ limit: 0 })).rejects.toBeInstanceOf(BadRequestError);
    const err = await (async () => {
      for await (const _ of client.customers.list({ limit: 101 })) throw new Error('no customer expected');
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).apiMessage).toBe('limit must be at most 100');
    expect(server.requests).toHaveLength(2); // a 400 is not retried
  });
});

describe('request options apply to every page', () => {
  it('headers and request id go with each page request', async () => {
    const pages = client.customers.list({ limit: 2 }, { headers: { 'X-Trace': 'sync-1' }, requestId: 'req_sync' });
    for await (const _ of pages);
    expect(server.requests.map((r) => [r.headers['x-trace'], r.headers['x-request-id']])).toEqual([
      ['sync-1', 'req_sync'],
      ['sync-1', 'req_sync'],
      ['sync-1', 'req_sync'],
    ]);
  });

  it('each page is retried on its own', async () => {
    server.plan = ['ok', '503', 'ok', '503', 'ok'];
    const seen = [];
    for await (const customer of client.customers.list({ limit: 2 })) seen.push(customer);
    expect(seen).toEqual(ALL);
    expect(server.requests).toHaveLength(5);
  });

  it('maxRetries of the call holds for later pages', async () => {
    server.plan = ['ok', '503', 'ok'];
    const seen: unknown[] = [];
    const iterate = async () => {
      for await (const customer of client.customers.list({ limit: 2 }, { maxRetries: 0 })) seen.push(customer);
    };
    await expect(iterate()).rejects.toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('the timeout of the call holds for later pages', async () => {
    server.plan = ['ok', 'hang'];
    const seen: unknown[] = [];
    const iterate = async () => {
      for await (const customer of client.customers.list({ limit: 2 }, { timeout: 300, maxRetries: 0 })) seen.push(customer);
    };
    await expect(iterate()).rejects.toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('an abort between pages stops before the next request', async () => {
    const controller = new AbortController();
    const seen: unknown[] = [];
    const iterate = async () => {
      for await (const customer of client.customers.list({ limit: 2 }, { signal: controller.signal })) {
        seen.push(customer);
        controller.abort();
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(UserAbortError);
    expect(seen).toHaveLength(2); // the rest of the page already fetched
    expect(server.requests).toHaveLength(1);
  });

  it('an abort cancels a later page in flight', async () => {
    server.plan = ['ok', 'hang'];
    const controller = new AbortController();
    const first = await client.customers.list({ limit: 2 }, { signal: controller.signal });
    const second = first.getNextPage();
    await until(() => server.requests.length === 2);
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(UserAbortError);
  });

  it('getNextPage(params, options) replaces the options for that page and the ones after it', async () => {
    const first = await client.customers.list({ limit: 2 }, { headers: { 'X-Trace': 'a' } });
    const second = await first.getNextPage({}, { headers: { 'X-Trace': 'b' } });
    await second.getNextPage();
    expect(server.requests.map((r) => r.headers['x-trace'])).toEqual(['a', 'b', 'b']);
  });
});

describe('client.customers.findByEmail', () => {
  it('finds the customer with one request, email percent-encoded so + stays a plus', async () => {
    expect(await client.customers.findByEmail('ada+tag@example.com')).toEqual(ALL[1]);
    expect(queries()).toEqual(['?email=ada%2Btag%40example.com&limit=1']);
  });

  it('compares case-insensitively (the server does) and resolves null when nobody has the address', async () => {
    expect(await client.customers.findByEmail('ADA+TAG@example.com')).toEqual(ALL[1]);
    expect(await client.customers.findByEmail('nobody@example.com')).toBeNull();
    const { data, error, requestId } = await client.customers.findByEmail('nobody@example.com').result();
    expect({ data, error, requestId }).toEqual({ data: null, error: undefined, requestId: 'req_3' });
  });

  it('rejects with the typed error of a failed request, under the call options', async () => {
    server.plan = ['503'];
    await expect(client.customers.findByEmail('ada@example.com', { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
    expect(server.requests).toHaveLength(1);
  });
});
