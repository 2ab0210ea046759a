import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  CustomersClient,
  NotFoundError,
  PermissionDeniedError,
} from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

describe.each(DIALECTS)('the SDK against the server on %s', (dialect) => {
  let server: TestServer;
  let seller: TestSeller;
  let client: CustomersClient;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    seller = await server.seller({ customerLimit: 2 });
    client = new CustomersClient({ apiKey: seller.key, baseUrl: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates, gets, updates and deletes a customer', async () => {
    const created = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    expect(created).toMatchObject({ seller_id: seller.sellerId, language: 'de', status: 'active', source: 'api' });
    expect(await client.customers.get(created.id)).toEqual(created);
    const updated = await client.customers.update(created.id, { status: 'suspended', company_name: 'ACME' });
    expect(updated).toMatchObject({ status: 'suspended', company_name: 'ACME', created_at: created.created_at });
    await client.customers.delete(created.id);
    await expect(client.customers.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('surfaces every error as the matching typed error', async () => {
    const first = await client.customers.create({ first_name: 'A', last_name: 'B', email: 'dup@example.com' });
    await expect(client.customers.create({ first_name: 'A', last_name: 'B', email: 'DUP@example.com' })).rejects.toBeInstanceOf(ConflictError);
    await expect(client.customers.update(first.id, {} as never)).rejects.toBeInstanceOf(BadRequestError);
    await client.customers.create({ first_name: 'A', last_name: 'B', email: 'second@example.com' });
    const limit = client.customers.create({ first_name: 'A', last_name: 'B', email: 'third@example.com' });
    await expect(limit).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(limit).rejects.toMatchObject({ status: 403, message: expect.stringContaining('allows 2 customers') });
    const stranger = new CustomersClient({ apiKey: `sk_live_${'Z'.repeat(48)}`, baseUrl: server.url, maxRetries: 0 });
    await expect(stranger.customers.get(first.id)).rejects.toBeInstanceOf(AuthenticationError);
  });
});
