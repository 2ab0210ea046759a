// The default mount ('*') serves any origin; a base URL with a path serves only below it.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const anywhere = createCustomersMock({ sellers: [{}] });
const mounted = createCustomersMock({ baseUrl: 'https://api.example.test/v1/', sellers: [{}] });
const server = setupServer(...mounted.handlers, ...anywhere.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const post = (url: string, key: string, email = 'ada@example.com') =>
  fetch(url, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email }),
  });

describe('base URL', () => {
  it('serves the API below a path prefix', async () => {
    const response = await post('https://api.example.test/v1/api/customers', mounted.sellers[0]!.apiKey);
    expect(response.status).toBe(201);
    expect(mounted.store.countCustomers(mounted.sellers[0]!.sellerId)).toBe(1);
  });

  it("serves any origin with the default '*'", async () => {
    for (const [n, origin] of ['http://127.0.0.1:3000', 'https://elsewhere.test'].entries()) {
      const response = await post(`${origin}/api/customers`, anywhere.sellers[0]!.apiKey, `a${n}@example.com`);
      expect(response.status).toBe(201);
    }
    expect(anywhere.store.countCustomers(anywhere.sellers[0]!.sellerId)).toBe(2);
  });
});
