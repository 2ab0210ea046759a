// The published SDK against the mock: what a seller's own test suite would do.
import { BadRequestError, ConflictError, CustomersClient, NotFoundError } from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE = 'http://127.0.0.1:3000';
const mock = createCustomersMock({ baseUrl: BASE, sellers: [{}] });
const server = setupServer(...mock.handlers);
const client = new CustomersClient({ apiKey: mock.sellers[0]!.apiKey, baseUrl: BASE, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('SDK against the mock', () => {
  it('creates, reads, updates and deletes, with typed errors', async () => {
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(ada.language).toBe('de');
    expect(await client.customers.get(ada.id)).toEqual(ada);
    expect((await client.customers.update(ada.id, { language: 'en' })).language).toBe('en');

    await expect(
      client.customers.create({ first_name: 'A', last_name: 'L', email: 'ADA@example.com' }),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(client.customers.update(ada.id, {})).rejects.toBeInstanceOf(BadRequestError);

    await client.customers.delete(ada.id);
    await expect(client.customers.get(ada.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
