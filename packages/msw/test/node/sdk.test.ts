// The published SDK against the mock: what a seller's own test suite would do.
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  CustomersClient,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  type LogEvent,
} from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://127.0.0.1:3000';
const mock = createCustomersMock({ baseUrl: BASE, sellers: [{}] });
const { apiKey, sellerId } = mock.sellers[0]!;
const server = setupServer(...mock.handlers);
const client = new CustomersClient({ apiKey, baseUrl: BASE, maxRetries: 0 });
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('SDK against the mock', () => {
  it('creates, reads, updates and deletes, with typed errors', async () => {
    const created = await client.customers.create(ada);
    expect(created.language).toBe('de');
    expect(await client.customers.get(created.id)).toEqual(created);
    expect((await client.customers.update(created.id, { language: 'en' })).language).toBe('en');

    await expect(
      client.customers.create({ first_name: 'A', last_name: 'L', email: 'ADA@example.com' }),
    ).rejects.toBeInstanceOf(ConflictError);
    // An empty update does not compile; the handlers still answer 400 to a caller that forces one.
    await expect(client.customers.update(created.id, {} as never)).rejects.toBeInstanceOf(BadRequestError);

    await client.customers.delete(created.id);
    await expect(client.customers.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('SDK error paths through forced responses', () => {
  it('retries a forced 503 on create and ends with exactly one customer', async () => {
    const events: LogEvent[] = [];
    const retrying = new CustomersClient({ apiKey, baseUrl: BASE, maxRetries: 2, logger: (event) => events.push(event) });
    // Retry-After: 0 so the SDK's honoured wait is instant; '1' works the same, one second slower.
    mock.nextResponse('createCustomer', { status: 503, headers: { 'Retry-After': '0' }, times: 2 });

    const created = await retrying.customers.create(ada);

    expect(created).toMatchObject(ada);
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(2);
    expect(mock.store.countCustomers(sellerId)).toBe(1);
    expect(await client.customers.get(created.id)).toEqual(created);
  });

  it('surfaces a forced network error as ConnectionError once retries are exhausted', async () => {
    mock.nextResponse('createCustomer', { networkError: true });
    mock.nextResponse('getCustomer', { networkError: true });
    await expect(client.customers.create(ada)).rejects.toBeInstanceOf(ConnectionError);
    await expect(client.customers.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ConnectionError);
    expect(mock.store.countCustomers(sellerId)).toBe(0);
  });

  it('recovers from a dropped create by retrying with the same Idempotency-Key: one customer', async () => {
    const retrying = new CustomersClient({ apiKey, baseUrl: BASE, maxRetries: 1 });
    mock.nextResponse('createCustomer', { networkError: true });
    await retrying.customers.create(ada);
    expect(mock.store.countCustomers(sellerId)).toBe(1);
  });

  it('gives typed errors for forced statuses, with the server’s wording and request id', async () => {
    mock.nextResponse('createCustomer', { status: 403 });
    mock.nextResponse('updateCustomer', { status: 500 });
    const denied = await client.customers.create(ada).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect((denied as PermissionDeniedError).message).toContain(
      'Customer limit reached; your subscription plan allows 100 customers',
    );
    expect((denied as PermissionDeniedError).requestId).toMatch(/^req_/);

    const created = await client.customers.create(ada);
    await expect(client.customers.update(created.id, { status: 'inactive' })).rejects.toBeInstanceOf(InternalServerError);
    expect((await client.customers.get(created.id)).status).toBe('active');
  });
});
