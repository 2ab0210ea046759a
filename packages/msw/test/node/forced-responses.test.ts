// Forcing responses so a consumer can test its error paths: statuses, delays, dropped connections.
import { MESSAGES } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://customers.test';
const mock = createCustomersMock({ baseUrl: BASE, sellers: [{ customerLimit: 3 }] });
const apiKey = mock.sellers[0]!.apiKey;
const sellerId = mock.sellers[0]!.sellerId;
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const create = (body: unknown = ada, headers: Record<string, string> = {}) =>
  fetch(`${BASE}/api/customers`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = (id: string) => fetch(`${BASE}/api/customers/${id}`, { headers: { 'X-API-Key': apiKey } });

describe('forced responses', () => {
  it('answers a forced 500 in the error shape with a request id, and stores nothing', async () => {
    mock.nextResponse('createCustomer', { status: 500 });
    const response = await create(ada, { 'X-Request-Id': 'req_forced.1' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('req_forced.1');
    expect(await response.json()).toEqual({ error: 'Internal Server Error', message: MESSAGES.internal });
    expect(mock.store.countCustomers(sellerId)).toBe(0);

    expect((await create()).status).toBe(201); // once only: the next request is real again
  });

  it('sends the given headers, e.g. a 503 with Retry-After', async () => {
    mock.nextResponse('createCustomer', { status: 503, headers: { 'Retry-After': '1' } });
    const response = await create();
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      error: 'Service Unavailable',
      message: 'The service is temporarily unavailable; retry later',
    });
    expect(mock.store.countCustomers(sellerId)).toBe(0);
  });

  it("words a forced 403 as the plan limit of the caller's seller", async () => {
    mock.nextResponse('createCustomer', { status: 403 });
    const response = await create();
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'Forbidden',
      message: 'Customer limit reached; your subscription plan allows 3 customers',
    });
  });

  it('words a forced 409 with the email of the request, and takes a message of your own', async () => {
    mock.nextResponse('createCustomer', { status: 409 });
    mock.nextResponse('createCustomer', { status: 400, message: 'email must be a valid email address' });
    expect(await (await create()).json()).toEqual({
      error: 'Conflict',
      message: 'A customer with email ada@example.com already exists',
    });
    expect(await (await create()).json()).toEqual({
      error: 'Bad Request',
      message: 'email must be a valid email address',
    });
    expect(mock.store.countCustomers(sellerId)).toBe(0);
  });

  it('repeats a forced response `times` times, then answers for real', async () => {
    mock.nextResponse('createCustomer', { status: 502, times: 2 });
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await create()).status);
    expect(statuses).toEqual([502, 502, 201]);
    expect(mock.store.countCustomers(sellerId)).toBe(1);
  });

  it('forces only the operation it names', async () => {
    mock.nextResponse('getCustomer', { status: 404 });
    const created = await create();
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect((await get(id)).status).toBe(404);
    expect((await get(id)).status).toBe(200);

    mock.nextResponse('updateCustomer', { status: 401 });
    mock.nextResponse('deleteCustomer', { status: 500 });
    const patched = await fetch(`${BASE}/api/customers/${id}`, {
      method: 'PATCH',
      headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'inactive' }),
    });
    expect(patched.status).toBe(401);
    expect(patched.headers.get('www-authenticate')).toBe('Bearer');
    expect(await patched.json()).toEqual({ error: 'Unauthorized', message: MESSAGES.apiKeyInvalid });
    const deleted = await fetch(`${BASE}/api/customers/${id}`, { method: 'DELETE', headers: { 'X-API-Key': apiKey } });
    expect(deleted.status).toBe(500);
    expect(await (await get(id)).json()).toMatchObject({ status: 'active' }); // neither reached the store
  });

  it('fails the connection on a forced network error, storing nothing', async () => {
    mock.nextResponse('createCustomer', { networkError: true });
    await expect(create()).rejects.toThrow(TypeError);
    expect(mock.store.countCustomers(sellerId)).toBe(0);
    expect((await create()).status).toBe(201);
  });

  it('delays and then gives the real answer: a later request overtakes the delayed one', async () => {
    const customer = await (await create()).json();
    // A different operation overtakes, so which request takes the forced delay is never in doubt. The delay runs
    // on a fake clock: the create finishes first however slow the machine, and the get only once time moves on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    mock.nextResponse('getCustomer', { delayMs: 200 });
    const finished: string[] = [];
    const slow = get(customer.id).then((response) => {
      finished.push('delayed get');
      return response;
    });
    const fastResponse = await create({ ...ada, email: 'grace@example.com' });
    finished.push('create');
    await vi.advanceTimersByTimeAsync(199);
    expect(finished).toEqual(['create']);
    await vi.advanceTimersByTimeAsync(1);
    const slowResponse = await slow;
    vi.useRealTimers();
    expect(finished).toEqual(['create', 'delayed get']);
    expect([slowResponse.status, fastResponse.status]).toEqual([200, 201]);
    expect(await slowResponse.json()).toEqual(customer);
  });

  it('adds forced headers to the real answer when only delaying', async () => {
    mock.nextResponse('createCustomer', { delayMs: 0, headers: { 'X-RateLimit-Remaining': '0' } });
    const response = await create();
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('drops forced responses on reset', async () => {
    mock.nextResponse('createCustomer', { status: 500, times: 5 });
    await mock.reset();
    expect((await create()).status).toBe(201);
  });

  it('never forces what is not an operation', async () => {
    mock.nextResponse('createCustomer', { status: 500 });
    const wrongMethod = await fetch(`${BASE}/api/customers`, { method: 'PUT', headers: { 'X-API-Key': apiKey } });
    expect(wrongMethod.status).toBe(405);
    expect((await create()).status).toBe(500);
  });

  it('refuses a forced response it cannot give', () => {
    expect(() => mock.nextResponse('createCustomer', { status: 200 as never, body: {} as never })).toThrow(/status 200 cannot be forced/);
    expect(() => mock.nextResponse('createCustomer', { status: 201 } as never)).toThrow(/status 201 needs the body/);
    expect(() => mock.nextResponse('searchCustomers' as never, { status: 500 })).toThrow(/unknown operation/);
  });
});
