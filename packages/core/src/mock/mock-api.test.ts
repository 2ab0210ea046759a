import { describe, expect, it } from 'vitest';
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
