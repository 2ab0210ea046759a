// Seed customers: created through core's rules, there from the start, brought back by reset().
import { generateApiKey } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomersMock, SeedError } from '../../src/index.js';

const BASE = 'http://customers.test';
const SHOP = '0b7e5f6c-3a43-4d2c-9a51-6f1d2b3c4d5e';
const OTHER_KEY = generateApiKey();
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const grace = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', language: 'en' as const };

const mock = createCustomersMock({
  baseUrl: BASE,
  sellers: [{ sellerId: SHOP, customerLimit: 3 }, { apiKey: OTHER_KEY }],
  seed: [
    { sellerId: SHOP, customers: [ada, grace] },
    { apiKey: OTHER_KEY, customers: [ada] },
  ],
});
const shopKey = mock.sellers[0]!.apiKey;
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const call = (method: string, path: string, key = shopKey, body?: unknown) =>
  fetch(`${BASE}${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('seed customers', () => {
  it('creates them through core, with defaults, for the sellers named', async () => {
    const [seededAda, seededGrace, otherAda] = await mock.ready;
    expect(seededAda).toMatchObject({ ...ada, seller_id: SHOP, language: 'de', status: 'active', source: 'api' });
    expect(seededGrace).toMatchObject({ ...grace, seller_id: SHOP });
    expect(otherAda!.seller_id).toBe(mock.sellers[1]!.sellerId);

    const fetched = await call('GET', `/api/customers/${seededAda!.id}`);
    expect(await fetched.json()).toEqual(seededAda);
    expect((await call('GET', `/api/customers/${seededAda!.id}`, OTHER_KEY)).status).toBe(404);
  });

  it('counts them towards the plan limit and email uniqueness', async () => {
    expect((await call('POST', '/api/customers', shopKey, { ...ada, email: 'ADA@example.com' })).status).toBe(409);
    expect((await call('POST', '/api/customers', shopKey, { ...ada, email: 'c@example.com' })).status).toBe(201);
    expect((await call('POST', '/api/customers', shopKey, { ...ada, email: 'd@example.com' })).status).toBe(403);
  });

  it('brings the seeded customers back on reset, with the same ids, and forgets the rest', async () => {
    const [seededAda] = await mock.ready;
    await call('DELETE', `/api/customers/${seededAda!.id}`);
    await call('PATCH', `/api/customers/${(await mock.ready)[1]!.id}`, shopKey, { status: 'suspended' });
    await call('POST', '/api/customers', shopKey, { ...ada, email: 'new@example.com' });
    const [added] = await mock.seed({ sellerId: SHOP, customers: [{ ...ada, email: 'later@example.com' }] });
    expect(mock.store.countCustomers(SHOP)).toBe(3);

    await mock.reset();
    expect(mock.store.countCustomers(SHOP)).toBe(2);
    expect(await (await call('GET', `/api/customers/${seededAda!.id}`)).json()).toEqual(seededAda);
    expect(await (await call('GET', `/api/customers/${(await mock.ready)[1]!.id}`)).json()).toMatchObject({ status: 'active' });
    expect((await call('GET', `/api/customers/${added!.id}`)).status).toBe(404);
  });

  it('seeds more at runtime and resolves with the created customers', async () => {
    const created = await mock.seed([{ apiKey: OTHER_KEY, customers: [grace, { ...ada, email: 'x@example.com', status: 'inactive' }] }]);
    expect(created.map((c) => [c.email, c.status])).toEqual([
      ['grace@example.com', 'active'],
      ['x@example.com', 'inactive'],
    ]);
    expect((await call('GET', `/api/customers/${created[1]!.id}`, OTHER_KEY)).status).toBe(200);
  });

  it('rejects runtime seeds the API would refuse, naming the customer and the reason', async () => {
    await expect(mock.seed({ sellerId: SHOP, customers: [{ ...ada, nickname: 'x' } as never] })).rejects.toThrow(
      'seed[0].customers[0] was rejected: 400 nickname is not an allowed property',
    );
    await expect(mock.seed({ sellerId: SHOP, customers: [ada] })).rejects.toThrow(
      'seed[0].customers[0] was rejected: 409 A customer with email ada@example.com already exists',
    );
    await expect(mock.seed({ apiKey: generateApiKey(), customers: [ada] })).rejects.toBeInstanceOf(SeedError);
  });
});

describe('invalid seed option', () => {
  it('throws at once for a body core refuses or an unknown seller', () => {
    expect(() => createCustomersMock({ seed: [{ customers: [{ first_name: 'Ada' } as never] }] })).toThrow(
      'seed[0].customers[0] was rejected: 400 last_name is required',
    );
    expect(() => createCustomersMock({ sellers: [{}], seed: [{ sellerId: SHOP, customers: [] }] })).toThrow(SeedError);
  });

  it('rejects `ready`, and answers every request 500, when the store refuses a seed', async () => {
    const broken = createCustomersMock({ baseUrl: 'http://broken.test', seed: [{ customers: [ada, ada] }] });
    await expect(broken.ready).rejects.toThrow('seed[0].customers[1] was rejected: 409');
    const brokenServer = setupServer(...broken.handlers);
    brokenServer.listen({ onUnhandledRequest: 'error' });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await fetch('http://broken.test/api/customers/x', { headers: { 'X-API-Key': generateApiKey() } });
      expect(response.status).toBe(500);
      expect(await response.text()).toContain('seed[0].customers[1] was rejected');
      expect(printed).toHaveBeenCalledWith(expect.any(SeedError));
    } finally {
      printed.mockRestore();
      brokenServer.close();
    }
  });
});
