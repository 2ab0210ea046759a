import { DIALECTS } from '@customers-api/server/testing';
import { ConnectionError, CustomersClient } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import { startFaultyProxy, type Fault, type FaultyProxy } from './faulty-proxy.js';

// Issue 5's end-to-end promise: when the network or the server fails the first attempts of a create, the SDK's
// retries (same Idempotency-Key, same body) end with exactly one customer in the real server's database.
describe.each(DIALECTS)('SDK retries against the reference server on %s', (dialect) => {
  let server: ServerTarget;
  const proxies: FaultyProxy[] = [];

  beforeAll(async () => {
    server = await startServerTarget(dialect);
  });
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await server?.close();
  });

  async function clientThrough(faults: Fault[], maxRetries: number) {
    const proxy = await startFaultyProxy(server.baseUrl, (n) => faults[n] ?? 'pass');
    proxies.push(proxy);
    const seller = await server.newSeller();
    const client = new CustomersClient({ apiKey: seller.key, baseUrl: proxy.url, maxRetries, timeout: 10_000 });
    return { proxy, seller, client };
  }

  const body = (tag: string) => ({ first_name: 'Grace', last_name: 'Hopper', email: `grace+${tag}.${dialect}@example.com` });

  it('two lost responses, then success: one customer, the one the caller gets back', async () => {
    const { proxy, seller, client } = await clientThrough(['lose-response', 'lose-response'], 2);
    const customer = await client.customers.create(body('lost'));

    expect(proxy.seen.map((request) => request.fault)).toEqual(['lose-response', 'lose-response', 'pass']);
    const keys = new Set(proxy.seen.map((request) => request.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[\x21-\x7E]{1,255}$/);
    expect(await server.countCustomers(seller.sellerId)).toBe(1);
    const stored = await new CustomersClient({ apiKey: seller.key, baseUrl: server.baseUrl }).customers.get(customer.id);
    expect(stored).toEqual(customer);
  });

  it('a 503 before the server is reached, then success: one customer', async () => {
    const { proxy, seller, client } = await clientThrough(['unavailable'], 2);
    await client.customers.create(body('unavailable'));
    expect(proxy.seen.map((request) => request.fault)).toEqual(['unavailable', 'pass']);
    expect(await server.countCustomers(seller.sellerId)).toBe(1);
  });

  it('out of retries after lost responses: a ConnectionError, and the first attempt stored its customer once', async () => {
    const { proxy, seller, client } = await clientThrough(['lose-response', 'lose-response', 'lose-response'], 1);
    await expect(client.customers.create(body('exhausted'))).rejects.toBeInstanceOf(ConnectionError);
    expect(proxy.seen).toHaveLength(2);
    expect(await server.countCustomers(seller.sellerId)).toBe(1);
  });
});
