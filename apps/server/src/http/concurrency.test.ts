import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/test-database.js';
import { call, newCustomer, startTestServer, type TestServer } from '../test/test-server.js';

describe.each(DIALECTS)('concurrent requests on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('concurrent creates with one email (any case): exactly one 201, the rest 409', async () => {
    const seller = await server.seller();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        server.call('POST', '/api/customers', {
          key: seller.key,
          body: newCustomer({ email: i % 2 ? 'race@example.com' : 'RACE@example.com' }),
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(24);
  });

  it('concurrent creates at the plan limit never exceed it', async () => {
    const seller = await server.seller({ customerLimit: 5 });
    const results = await Promise.all(
      Array.from({ length: 25 }, () => server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 403)).toHaveLength(20);
  });

  it('concurrent updates of different customers to one email: exactly one wins', async () => {
    const seller = await server.seller();
    const customers = await Promise.all(
      Array.from({ length: 8 }, () => server.call('POST', '/api/customers', { key: seller.key, body: newCustomer() })),
    );
    const results = await Promise.all(
      customers.map((c, i) =>
        server.call('PATCH', `/api/customers/${c.json.id}`, {
          key: seller.key,
          body: { email: i % 2 ? 'target@example.com' : 'Target@Example.com' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it('concurrent retries with one Idempotency-Key create one customer', async () => {
    const seller = await server.seller({ customerLimit: 100 });
    const body = newCustomer();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        server.call('POST', '/api/customers', { key: seller.key, body, headers: { 'idempotency-key': 'one-create' } }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1);
  });

  it(
    'two server instances with separate connections on one database behave as one',
    async () => {
      const other = await server.sibling();
      const seller = await server.seller({ customerLimit: 6 });
      const targets = [server.url, other.url];
      const creates = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(targets[i % 2]!, 'POST', '/api/customers', { key: seller.key, body: newCustomer() }),
        ),
      );
      expect(creates.filter((r) => r.status === 201)).toHaveLength(6);
      expect(creates.filter((r) => r.status === 403)).toHaveLength(24);

      const roomy = await server.seller({ customerLimit: 100 });
      const dups = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(targets[i % 2]!, 'POST', '/api/customers', { key: roomy.key, body: newCustomer({ email: 'both@example.com' }) }),
        ),
      );
      expect(dups.filter((r) => r.status === 201)).toHaveLength(1);
      expect(dups.filter((r) => r.status === 409)).toHaveLength(19);

      // What one instance writes, the other reads; a key revoked via one is refused by both.
      const id = dups.find((r) => r.status === 201)!.json.id;
      const patched = await call(other.url, 'PATCH', `/api/customers/${id}`, { key: roomy.key, body: { status: 'suspended' } });
      expect(patched.status).toBe(200);
      expect((await call(server.url, 'GET', `/api/customers/${id}`, { key: roomy.key })).json.status).toBe('suspended');
      expect((await call(server.url, 'DELETE', `/api/customers/${id}`, { key: roomy.key })).status).toBe(204);
      expect((await call(other.url, 'GET', `/api/customers/${id}`, { key: roomy.key })).status).toBe(404);
    },
  );
});
