import { describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { KeyAndPageLookup } from '../auth/authenticate.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { authenticateOperation } from './authenticate-operation.js';
import { OPERATIONS, runOperation } from './operations.js';
import { live } from '../testing/tenants.js';

const list = OPERATIONS.find((candidate) => candidate.id === 'listCustomers')!;
const headers = (values: Record<string, string>) => (name: string) => new Headers(values).get(name);

async function setUp() {
  const store = new MemoryCustomerStore();
  const service = createCustomerService({ store });
  const keys = new MemoryKeyRegistry();
  const sellers = [];
  for (const name of ['Ada', 'Grace']) {
    const key = generateApiKey();
    const seller = { sellerId: crypto.randomUUID(), customerLimit: 10, mode: 'live' as const, scopes: null };
    await keys.add(key, seller);
    for (const n of [1, 2, 3]) await service.create(seller, { first_name: name, last_name: `${n}`, email: `${name}${n}@example.com` });
    sellers.push({ key, seller });
  }
  // A one-step lookup as a store would answer it: the key's seller, and only that seller's page.
  const combined = vi.fn<KeyAndPageLookup>(async (keyHash, page) => {
    const found = await keys.lookup(keyHash);
    return found && { seller: found, rows: await store.listCustomers(live(found.sellerId), page) };
  });
  const lookupKey = vi.fn(keys.lookup);
  return { store, service, sellers, combined, lookups: { lookupKey, lookupKeyAndPage: combined } };
}

async function answer(setup: Awaited<ReturnType<typeof setUp>>, key: string, query: string) {
  try {
    const auth = await authenticateOperation(list, {}, headers({ 'X-API-Key': key }), setup.lookups, undefined, query);
    const result = await runOperation(list, { ...auth, service: setup.service, params: {}, header: headers({}), query, body: null });
    return result.body as { data: { first_name: string; last_name: string }[]; next_cursor: string | null };
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.message}`;
    throw error;
  }
}

describe('authenticateOperation: listCustomers', () => {
  it('a valid query: the key and the page in one lookup, and the operation reads nothing again', async () => {
    const setup = await setUp();
    const read = vi.spyOn(setup.store, 'listCustomers');
    const first = await answer(setup, setup.sellers[0]!.key, 'limit=2');
    expect(typeof first === 'object' && first.data.map((c) => c.last_name)).toEqual(['3', '2']);
    const cursor = typeof first === 'object' ? first.next_cursor : null;
    const next = await answer(setup, setup.sellers[0]!.key, `limit=2&cursor=${cursor}`);
    expect(typeof next === 'object' && next.data.map((c) => `${c.first_name} ${c.last_name}`)).toEqual(['Ada 1']);
    expect(setup.combined).toHaveBeenCalledTimes(2);
    expect(setup.lookups.lookupKey).not.toHaveBeenCalled();
    // Only the lookup's own reads: the operation asked the store for nothing.
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('a bad key is 401 whatever the query; an invalid query with a good key is its 400, after the key alone', async () => {
    const setup = await setUp();
    expect(await answer(setup, generateApiKey(), 'limit=500')).toBe('401 The API key is invalid, revoked or expired');
    expect(await answer(setup, generateApiKey(), 'limit=2')).toBe('401 The API key is invalid, revoked or expired');
    expect(await answer(setup, setup.sellers[0]!.key, 'limit=500')).toBe('400 limit must be at most 100');
    expect(await answer(setup, setup.sellers[0]!.key, 'cursor=nonsense')).toMatch(/^400 cursor/);
    expect(setup.combined).toHaveBeenCalledTimes(1);
  });

  it("another seller's cursor, or one made for other filters, is the 400 even though the page was read with the key", async () => {
    const setup = await setUp();
    const page = await answer(setup, setup.sellers[1]!.key, 'limit=1');
    const cursor = typeof page === 'object' ? page.next_cursor : null;
    const message = await answer(setup, setup.sellers[1]!.key, `limit=1&cursor=${cursor}&status=active`);
    expect(message).toMatch(/^400 cursor/);
    expect(await answer(setup, setup.sellers[0]!.key, `limit=1&cursor=${cursor}`)).toBe(message);
    expect(setup.combined).toHaveBeenCalledTimes(3);
  });

  it('without a query or a one-step lookup: the key alone (two steps, as before)', async () => {
    const setup = await setUp();
    const header = headers({ 'X-API-Key': setup.sellers[0]!.key });
    const { seller } = setup.sellers[0]!;
    expect(await authenticateOperation(list, {}, header, setup.lookups)).toEqual({ seller });
    expect(await authenticateOperation(list, {}, header, { lookupKey: setup.lookups.lookupKey }, undefined, '')).toEqual({ seller });
    expect(setup.combined).not.toHaveBeenCalled();
  });

  it('another operation with a query and a one-step page lookup: the key alone, no page read', async () => {
    const setup = await setUp();
    const header = headers({ 'X-API-Key': setup.sellers[0]!.key });
    const { seller } = setup.sellers[0]!;
    for (const id of ['createCustomer', 'getCustomer', 'listEvents']) {
      const operation = OPERATIONS.find((candidate) => candidate.id === id)!;
      expect(await authenticateOperation(operation, {}, header, setup.lookups, undefined, 'limit=1')).toEqual({ seller });
    }
    expect(await authenticateOperation(undefined, {}, header, setup.lookups, undefined, 'limit=1')).toEqual({ seller });
    expect(setup.combined).not.toHaveBeenCalled();
  });
});
