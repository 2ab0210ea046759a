import { describe, expect, it } from 'vitest';
import { createCustomerService } from '../customers/customer-service.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { OPERATIONS, pathFor, runOperation } from './operations.js';

// What runOperation and pathFor do with the inputs a host may leave out.
const seller = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 10 };
const list = OPERATIONS.find((operation) => operation.id === 'listCustomers')!;

describe('runOperation', () => {
  it('lists with the defaults when the host passes no query string', async () => {
    const service = createCustomerService({ store: new MemoryCustomerStore() });
    const result = await runOperation(list, { service, seller, params: {}, header: () => null, body: null });
    expect(result).toEqual({
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: { data: [], has_more: false, next_cursor: null },
    });
  });
});

describe('pathFor', () => {
  it('fills in and percent-encodes parameters, and leaves a missing one empty', () => {
    expect(pathFor('getCustomer', { id: 'a/b c' })).toBe('/api/customers/a%2Fb%20c');
    expect(pathFor('getCustomer')).toBe('/api/customers/');
    expect(pathFor('listCustomers')).toBe('/api/customers');
  });
});
