import { createCustomerService } from '../customers/customer-service.js';
import { ApiError } from '../errors/api-error.js';
import { generateApiKey } from '../auth/api-key.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { describe, expect, it } from 'vitest';
import { applySeeds, checkSeeds, SeedError } from './seed.js';
import { createSellerDirectory } from './sellers.js';

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

function setup(sellers?: Array<{ customerLimit?: number }>) {
  const directory = createSellerDirectory({ sellers });
  const store = new MemoryCustomerStore();
  return { directory, store, service: createCustomerService({ store }) };
}

describe('seeds', () => {
  it('creates through core, so defaults apply and the customers are returned in order', async () => {
    const { directory, service, store } = setup();
    const customers = await applySeeds(
      service,
      [{ customers: [ada, { ...ada, email: 'grace@example.com', language: 'en' }] }],
      directory.find,
    );
    expect(customers.map((c) => [c.email, c.language, c.status, c.source])).toEqual([
      ['ada@example.com', 'de', 'active', 'api'],
      ['grace@example.com', 'en', 'active', 'api'],
    ]);
    expect(store.countCustomers(directory.defaultSeller!.sellerId)).toBe(2);
  });

  it('refuses an invalid body at once, naming the customer and the property', () => {
    const { directory } = setup();
    const seeds = [{ customers: [ada, { first_name: 'Grace', email: 'g@example.com' } as never] }];
    expect(() => checkSeeds(seeds, directory.find)).toThrow(
      new SeedError('seed[0].customers[1] was rejected: 400 last_name is required'),
    );
  });

  it('refuses a seed for an unknown or unnamed seller', () => {
    const { directory } = setup([{}, {}]);
    expect(() => checkSeeds([{ sellerId: 'nobody', customers: [] }], directory.find)).toThrow(/no seller matches sellerId nobody/);
    expect(() => checkSeeds([{ customers: [] }], directory.find)).toThrow(/name the seller with sellerId or apiKey/);
    expect(() => checkSeeds([{ sellerId: directory.sellers[1]!.sellerId, customers: [ada] }], directory.find)).not.toThrow();
  });

  it('rejects what only the store can decide: a duplicate email and the plan limit', async () => {
    const { directory, service } = setup([{ customerLimit: 1 }]);
    await expect(
      applySeeds(service, [{ customers: [ada, { ...ada, email: 'ADA@example.com' }] }], directory.find),
    ).rejects.toThrow('seed[0].customers[1] was rejected: 403 Customer limit reached; your subscription plan allows 1 customer');
    const other = setup([{}]);
    await expect(
      applySeeds(other.service, [{ customers: [ada, { ...ada, email: 'ADA@example.com' }] }], other.directory.find),
    ).rejects.toThrow('seed[0].customers[1] was rejected: 409 A customer with email ADA@example.com already exists');
  });

  it('is a SeedError naming every reference that matched nothing, with the API error as its cause', async () => {
    const { directory, service } = setup([{}, {}]);
    let caught: unknown;
    try {
      checkSeeds([{ sellerId: 'nobody', apiKey: generateApiKey(), customers: [] }], directory.find);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SeedError);
    expect((caught as Error).name).toBe('SeedError');
    expect((caught as Error).message).toBe(
      'seed[0]: no seller matches sellerId nobody and that apiKey; add it to `sellers` or with addSeller() first',
    );
    expect(() => checkSeeds([{ apiKey: generateApiKey(), customers: [] }], directory.find)).toThrow(
      'seed[0]: no seller matches that apiKey; add it',
    );
    const refused = await applySeeds(service, [{ sellerId: directory.sellers[0]!.sellerId, customers: [ada, ada] }], directory.find).catch(
      (error: unknown) => error,
    );
    expect((refused as SeedError).cause).toBeInstanceOf(ApiError);
    expect(((refused as SeedError).cause as ApiError).status).toBe(409);
  });
});
