import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { ApiRequest, ApiResponse } from '../http/types.js';
import { NETWORK_ERROR } from './forced-answer.js';
import { createMemoryRateLimiter } from '../rate-limit/memory-rate-limiter.js';
import { createMockApi } from './mock-api.js';

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const key = generateApiKey();
const request = (method: string, path: string, body?: unknown): ApiRequest => {
  const headers = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json' });
  return { method, path, header: (name) => headers.get(name), body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)) };
};
const answer = (api: ReturnType<typeof createMockApi>, method: string, path: string, body?: unknown, forced?: Parameters<typeof api.nextResponse>[1]) =>
  api.answer(method, path, async () => request(method, path, body), forced);

describe('createMockApi', () => {
  it("answers through core's rules with the seeded customers, and resets to them", async () => {
    const api = createMockApi({ seed: [{ customers: [ada] }] });
    const [seeded] = await api.ready;
    expect(((await answer(api, 'GET', `/api/customers/${seeded!.id}`)) as ApiResponse).body).toEqual(seeded);
    expect(((await answer(api, 'POST', '/api/customers', ada)) as ApiResponse).status).toBe(409);
    expect(((await answer(api, 'POST', '/api/customers', { ...ada, email: 'b@example.com' })) as ApiResponse).status).toBe(201);
    await api.reset();
    expect(api.store.countCustomers(seeded!.seller_id)).toBe(1);
  });

  it('plays queued forced responses first, and a per-request one without touching the queue', async () => {
    const api = createMockApi();
    api.nextResponse('getCustomer', { networkError: true });
    const preferred = await answer(api, 'GET', '/api/customers/x', undefined, { status: 503, headers: { 'Retry-After': '2' } });
    expect(preferred).toMatchObject({ status: 503, headers: { 'Retry-After': '2' } });
    expect(await answer(api, 'GET', '/api/customers/x')).toBe(NETWORK_ERROR);
    expect(((await answer(api, 'GET', '/api/customers/x')) as ApiResponse).status).toBe(404);
    await expect(answer(api, 'GET', '/api/customers/x', undefined, { status: 201, body: {} })).rejects.toThrow(/status 201 cannot be forced/);
  });

  it('simulates a rate limit per seller with the server\'s headers, and none for 0', async () => {
    const api = createMockApi({ rateLimit: createMemoryRateLimiter({ limit: 1, now: () => 0 }) });
    const first = (await answer(api, 'GET', '/api/customers')) as ApiResponse;
    expect(first.headers).toMatchObject({ RateLimit: '"seller";r=0;t=1', 'RateLimit-Policy': '"seller";q=1;w=1' });
    const refused = (await answer(api, 'GET', '/api/customers')) as ApiResponse;
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': '1', RateLimit: '"seller";r=0;t=1' } });
    expect(refused.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests; retry after 1 second' });
    expect(((await answer(createMockApi({ rateLimit: 2 }), 'GET', '/api/customers')) as ApiResponse).headers.RateLimit).toBe('"seller";r=1;t=1');
    const unlimited = createMockApi({ rateLimit: 0 });
    for (let i = 0; i < 3; i += 1) expect(((await answer(unlimited, 'GET', '/api/customers')) as ApiResponse).headers.RateLimit).toBeUndefined();
  });

  it('finds given, added and default sellers by id', async () => {
    const api = createMockApi({ defaultSellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a' });
    const added = await api.addSeller({ customerLimit: 2 });
    expect(api.findSeller(added.sellerId)).toEqual({ sellerId: added.sellerId, customerLimit: 2 });
    expect(api.findSeller('9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a')?.customerLimit).toBe(100);
    expect(api.findSeller('nobody')).toBeUndefined();
  });

  it('stamps customers with the clock it is given', async () => {
    const api = createMockApi({ clock: () => '2030-01-02T03:04:05.000Z' });
    const created = (await answer(api, 'POST', '/api/customers', ada)) as ApiResponse;
    expect(created.body).toMatchObject({ created_at: '2030-01-02T03:04:05.000Z', updated_at: '2030-01-02T03:04:05.000Z' });
  });

  it('reports a fault that is not an API error to onUnexpectedError and answers 500', async () => {
    const faults: unknown[][] = [];
    const api = createMockApi({ onUnexpectedError: (...args) => faults.push(args) });
    const fault = new Error('header store down');
    const broken: ApiRequest = {
      ...request('GET', '/api/customers'),
      header: (name) => {
        if (name.toLowerCase() === 'x-api-key') throw fault;
        return name.toLowerCase() === 'x-request-id' ? 'req-1' : null;
      },
    };
    const response = (await api.answer('GET', '/api/customers', async () => broken)) as ApiResponse;
    expect(response.status).toBe(500);
    expect(faults).toEqual([[fault, 'req-1']]);
  });

  describe('a forced delay alone', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('delays the real answer, which carries the forced headers over its own', async () => {
      vi.useFakeTimers();
      const api = createMockApi();
      api.nextResponse('listCustomers', { delayMs: 500, headers: { 'X-Extra': '1' } });
      let settled = false;
      const pending = answer(api, 'GET', '/api/customers').then((response) => {
        settled = true;
        return response as ApiResponse;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const response = await pending;
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [], has_more: false, next_cursor: null });
      expect(response.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Extra': '1' });
    });
  });

  it('seeds more customers later, one seed or a list, and reset keeps only the first ones', async () => {
    const api = createMockApi({ seed: [{ customers: [ada] }] });
    const [bob] = await api.seed({ customers: [{ ...ada, email: 'bob@example.com' }] });
    const more = await api.seed([{ customers: [{ ...ada, email: 'c@example.com' }] }, { customers: [{ ...ada, email: 'd@example.com' }] }]);
    expect(more.map((c) => c.email)).toEqual(['c@example.com', 'd@example.com']);
    const got = (await answer(api, 'GET', `/api/customers/${bob!.id}`)) as ApiResponse;
    expect(got.body).toEqual(bob);
    expect(api.store.countCustomers(bob!.seller_id)).toBe(4);
    await api.reset();
    expect(api.store.countCustomers(bob!.seller_id)).toBe(1);
  });

  it('after a refused seed, reset leaves the store empty and requests keep failing with the seed error', async () => {
    const api = createMockApi({ seed: [{ customers: [ada, ada] }] });
    await expect(api.ready).rejects.toThrow(/already exists/);
    await api.reset();
    expect(api.store.countCustomers(api.defaultSeller!.sellerId)).toBe(0);
    await expect(answer(api, 'GET', '/api/customers')).rejects.toThrow(/already exists/);
  });

  it('authenticates keys added later and refuses revoked ones', async () => {
    const api = createMockApi({ sellers: [{}] });
    const [seller] = api.sellers;
    const extra = generateApiKey();
    const withKey = (apiKey: string) => {
      const headers = new Headers({ 'X-API-Key': apiKey });
      return api.answer('GET', '/api/customers', async () => ({ method: 'GET', path: '/api/customers', header: (name) => headers.get(name), body: null }));
    };
    expect(((await withKey(extra)) as ApiResponse).status).toBe(401);
    await api.addKey(seller!.sellerId, { apiKey: extra });
    expect(((await withKey(extra)) as ApiResponse).status).toBe(200);
    await api.revokeKey(extra);
    expect(((await withKey(extra)) as ApiResponse).status).toBe(401);
    expect(((await withKey(seller!.apiKey)) as ApiResponse).status).toBe(200);
  });

  it('emits the events of acknowledged changes before answering, and none for seeds, refusals, forced answers or replays', async () => {
    const api = createMockApi({ seed: [{ customers: [ada] }] });
    const heard: Array<[string, number]> = [];
    api.onEvent((event) => heard.push([event.type, event.data.sequence]));
    const [seeded] = await api.ready;
    expect(heard).toEqual([]);

    const created = (await answer(api, 'POST', '/api/customers', { ...ada, email: 'b@example.com' })) as ApiResponse;
    expect(heard).toEqual([['customer.created', 1]]); // already there when the answer is
    const id = (created.body as { id: string }).id;
    expect(((await answer(api, 'POST', '/api/customers', ada)) as ApiResponse).status).toBe(409);
    expect(((await answer(api, 'PATCH', `/api/customers/${id}`, { email: 'not an email' })) as ApiResponse).status).toBe(400);
    api.nextResponse('deleteCustomer', { status: 503 });
    expect(((await answer(api, 'DELETE', `/api/customers/${id}`)) as ApiResponse).status).toBe(503);
    expect(((await answer(api, 'PATCH', `/api/customers/${seeded!.id}`, { status: 'inactive' })) as ApiResponse).status).toBe(200);
    expect(((await answer(api, 'DELETE', `/api/customers/${id}`)) as ApiResponse).status).toBe(204);
    expect(heard).toEqual([['customer.created', 1], ['customer.updated', 2], ['customer.deleted', 2]]);

    await api.seed({ customers: [{ ...ada, email: 'c@example.com' }] });
    await api.reset(); // the seed is put back without events; listeners stay
    expect(((await answer(api, 'PATCH', `/api/customers/${seeded!.id}`, { language: 'en' })) as ApiResponse).status).toBe(200);
    expect(heard.slice(3)).toEqual([['customer.updated', 2]]);
  });

  it('emits no event for the replay of an idempotent create', async () => {
    const api = createMockApi();
    const heard: string[] = [];
    api.onEvent((event) => heard.push(event.data.customer.id));
    const headers = new Headers({ 'X-API-Key': key, 'Content-Type': 'application/json', 'Idempotency-Key': 'create-ada-once' });
    const create = () =>
      api.answer('POST', '/api/customers', async () => ({
        method: 'POST',
        path: '/api/customers',
        header: (name: string) => headers.get(name),
        body: new TextEncoder().encode(JSON.stringify(ada)),
      }));
    const first = (await create()) as ApiResponse;
    const replay = (await create()) as ApiResponse;
    expect(replay.body).toEqual(first.body);
    expect(heard).toEqual([(first.body as { id: string }).id]);
  });
});
