import { describe, expect, it, vi } from 'vitest';
import { generateApiKey } from '../auth/api-key.js';
import type { KeyAndCustomerLookup } from '../auth/authenticate.js';
import { MemoryKeyRegistry } from '../auth/memory-key-registry.js';
import { createCustomerService } from '../customers/customer-service.js';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { authenticateOperation } from './authenticate-operation.js';
import { OPERATIONS, runOperation } from './operations.js';
import { live } from '../testing/tenants.js';

const operation = (id: string) => OPERATIONS.find((candidate) => candidate.id === id)!;
const headers = (values: Record<string, string>) => (name: string) => new Headers(values).get(name);

async function setUp() {
  const store = new MemoryCustomerStore();
  const service = createCustomerService({ store });
  const keys = new MemoryKeyRegistry();
  const key = generateApiKey();
  const seller = { sellerId: crypto.randomUUID(), customerLimit: 10, mode: 'live' as const, scopes: null };
  await keys.add(key, seller);
  const { customer } = await service.create(seller, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  // A one-step lookup as a store would answer it: the key's seller, and only that seller's customer.
  const combined = vi.fn<KeyAndCustomerLookup>(async (keyHash, id) => {
    const found = await keys.lookup(keyHash);
    return found && { seller: found, customer: await store.findCustomer(live(found.sellerId), id) };
  });
  const lookupKey = vi.fn(keys.lookup);
  return { store, service, key, seller, customer, combined, lookups: { lookupKey, lookupKeyAndCustomer: combined } };
}

async function statusOf(promise: Promise<unknown>) {
  return promise.then(
    () => 200,
    (error: unknown) => (error instanceof ApiError ? `${error.status} ${error.message}` : Promise.reject(error)),
  );
}

describe('authenticateOperation', () => {
  it('getCustomer: the key and the customer in one lookup, and the operation reads nothing again', async () => {
    const { store, service, key, seller, customer, combined, lookups } = await setUp();
    const params = { id: customer.id.toUpperCase() };
    const auth = await authenticateOperation(operation('getCustomer'), params, headers({ 'X-API-Key': key }), lookups);
    expect(auth).toEqual({ seller, preRead: { id: customer.id, customer } });
    expect(combined).toHaveBeenCalledTimes(1);
    expect(lookups.lookupKey).not.toHaveBeenCalled();
    const find = vi.spyOn(store, 'findCustomer');
    const result = await runOperation(operation('getCustomer'), { service, seller, params, header: headers({}), body: null, preRead: auth.preRead });
    expect(result).toMatchObject({ status: 200, body: customer });
    expect(find).not.toHaveBeenCalled();
  });

  it('getCustomer of an id the seller does not have: the service answers 404 from the pre-read', async () => {
    const { service, key, combined, lookups } = await setUp();
    const params = { id: crypto.randomUUID() };
    const auth = await authenticateOperation(operation('getCustomer'), params, headers({ 'X-API-Key': key }), lookups);
    expect(auth.preRead).toEqual({ id: params.id, customer: undefined });
    expect(combined).toHaveBeenCalledTimes(1);
    const run = runOperation(operation('getCustomer'), { service, seller: auth.seller, params, header: headers({}), body: null, preRead: auth.preRead });
    expect(await statusOf(run)).toBe('404 Customer not found');
  });

  it('the same 401s, in the same order, before anything about the customer', async () => {
    const { customer, combined, lookups } = await setUp();
    const params = { id: customer.id };
    const get = (values: Record<string, string>) => statusOf(authenticateOperation(operation('getCustomer'), params, headers(values), lookups));
    expect(await get({})).toMatch(/^401 An API key is required/);
    expect(await get({ 'X-API-Key': 'nonsense' })).toBe('401 The API key is invalid, revoked or expired');
    expect(combined).not.toHaveBeenCalled();
    expect(await get({ 'X-API-Key': generateApiKey() })).toBe('401 The API key is invalid, revoked or expired');
    expect(combined).toHaveBeenCalledTimes(1);
  });

  it('a malformed id, another operation, or no one-step lookup: the key alone (two steps, as before)', async () => {
    const { key, seller, customer, combined, lookups } = await setUp();
    const header = headers({ 'X-API-Key': key });
    expect(await authenticateOperation(operation('getCustomer'), { id: '42' }, header, lookups)).toEqual({ seller });
    expect(await authenticateOperation(operation('updateCustomer'), { id: customer.id }, header, lookups)).toEqual({ seller });
    expect(await authenticateOperation(undefined, {}, header, lookups)).toEqual({ seller });
    expect(await authenticateOperation(operation('getCustomer'), { id: customer.id }, header, { lookupKey: lookups.lookupKey })).toEqual({ seller });
    expect(combined).not.toHaveBeenCalled();
    expect(lookups.lookupKey).toHaveBeenCalledTimes(4);
  });
});
