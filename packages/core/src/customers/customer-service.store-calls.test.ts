import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import type { SellerContext } from '../types.js';
import { createCustomerService } from './customer-service.js';
import type { Tenant } from '../tenancy/tenant.js';

const seller: SellerContext = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 100 };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

/** A memory store that records the ids each call was given. */
class RecordingStore extends MemoryCustomerStore {
  readonly ids: unknown[] = [];
  override async updateCustomer(...args: Parameters<MemoryCustomerStore['updateCustomer']>) {
    this.ids.push(args[1]);
    return super.updateCustomer(...args);
  }
  override async deleteCustomer(tenant: Tenant, id: string) {
    this.ids.push(id);
    return super.deleteCustomer(tenant, id);
  }
  override async findCustomer(tenant: Tenant, id: string) {
    this.ids.push(id);
    return super.findCustomer(tenant, id);
  }
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  return 200;
}

describe('customer service and its store', () => {
  // validate.ts: stores only ever see canonical UUIDs; anything else is a 404 without asking them.
  it('answers 404 for a malformed id without asking the store', async () => {
    const store = new RecordingStore();
    const service = createCustomerService({ store });
    for (const id of ['42', '', 'not-a-uuid', '../etc']) {
      expect(await status(service.get(seller, id))).toBe(404);
      expect(await status(service.update(seller, id, { status: 'inactive' }))).toBe(404);
      expect(await status(service.delete(seller, id))).toBe(404);
    }
    expect(store.ids).toEqual([]);
    const upper = '3F1C2A9E-6D1B-4C7A-9F0E-2B8D5C4A7E61';
    expect(await status(service.delete(seller, upper))).toBe(404);
    expect(store.ids).toEqual([upper.toLowerCase()]);
  });

  it('says has_more only when a customer follows the page', async () => {
    const service = createCustomerService({ store: new MemoryCustomerStore() });
    for (const n of [1, 2, 3]) await service.create(seller, { ...ada, email: `c${n}@example.com` });
    expect(await service.list(seller, 'limit=3')).toMatchObject({ has_more: false, next_cursor: null });
    const first = await service.list(seller, 'limit=2');
    expect(first.has_more).toBe(true);
    const rest = await service.list(seller, `limit=1&cursor=${first.next_cursor}`);
    expect(rest).toMatchObject({ has_more: false, next_cursor: null });
    expect(rest.data).toHaveLength(1);
  });
});
