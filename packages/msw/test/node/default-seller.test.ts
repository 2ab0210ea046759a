// No `sellers` option: every well-formed key is the one default seller; malformed keys are 401 as core decides.
import { errors, generateApiKey } from '@customers-api/core';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://customers.test';
const mock = createCustomersMock({ baseUrl: BASE, customerLimit: 2 });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const create = (key: string, email: string) =>
  fetch(`${BASE}/api/customers`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email }),
  });
const get = (key: string, id: string) => fetch(`${BASE}/api/customers/${id}`, { headers: { Authorization: `Bearer ${key}` } });

describe('default seller', () => {
  it('accepts any well-formed key as one seller with the given plan limit', async () => {
    const [first, second, third] = [generateApiKey(), generateApiKey(), mock.defaultSeller!.apiKey];
    const created = await create(first, 'ada@example.com');
    expect(created.status).toBe(201);
    const customer = await created.json();
    expect(customer.seller_id).toBe(mock.defaultSeller!.sellerId);
    expect(mock.sellers).toEqual([]);

    expect((await get(second, customer.id)).status).toBe(200); // same seller, another key
    expect((await create(second, 'ADA@example.com')).status).toBe(409);
    expect((await create(third, 'grace@example.com')).status).toBe(201);
    const overLimit = await create(generateApiKey(), 'linus@example.com');
    expect(overLimit.status).toBe(403);
    expect(await overLimit.json()).toEqual(errors.planLimitReached(2).toBody());
  });

  it('answers malformed and missing keys 401 exactly as core does', async () => {
    for (const key of ['sk_live_short', `pk_live_${'a'.repeat(48)}`, `sk_live_${'a'.repeat(47)}!`]) {
      const response = await create(key, 'ada@example.com');
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual(errors.apiKeyInvalid().toBody());
    }
    const missing = await fetch(`${BASE}/api/customers/x`);
    expect(await missing.json()).toEqual(errors.apiKeyMissing().toBody());
    expect(mock.store.countCustomers(mock.defaultSeller!.sellerId)).toBe(0);
  });

  it('revokes one key while the others keep working', async () => {
    const revoked = generateApiKey();
    await mock.revokeKey(revoked);
    expect((await create(revoked, 'ada@example.com')).status).toBe(401);
    expect((await create(generateApiKey(), 'ada@example.com')).status).toBe(201);
  });

  it('keeps added sellers apart from the default one', async () => {
    const other = await mock.addSeller({ customerLimit: 1 });
    const theirs = await (await create(other.apiKey, 'ada@example.com')).json();
    expect(theirs.seller_id).toBe(other.sellerId);
    expect((await get(generateApiKey(), theirs.id)).status).toBe(404);
    expect((await create(generateApiKey(), 'ada@example.com')).status).toBe(201); // no clash across sellers
  });

  it('defaults the plan limit to the free plan’s 100', () => {
    expect(createCustomersMock().defaultSeller!.customerLimit).toBe(100);
    expect(createCustomersMock({ sellers: [{}] }).defaultSeller).toBeUndefined();
  });
});
