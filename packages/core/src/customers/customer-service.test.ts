import { beforeEach, describe, expect, it } from 'vitest';
import { assertCustomerSchema } from '../../test/spec.js';
import { ApiError } from '../errors/api-error.js';
import { MemoryCustomerStore } from '../store/memory-store.js';
import { sampleCustomer } from '../testing/store-contract.js';
import type { SellerContext } from '../types.js';
import { createCustomerService, type CustomerService } from './customer-service.js';

const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const seller: SellerContext = { sellerId: '9b2e7d4c-1a3f-4e5b-8c6d-0f1e2d3c4b5a', customerLimit: 3 };
const other: SellerContext = { sellerId: '11111111-2222-4333-8444-555555555555', customerLimit: 3 };
const MISSING = '00000000-0000-4000-8000-000000000000';

async function failure(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected the operation to fail');
}

let store: MemoryCustomerStore;
let service: CustomerService;
beforeEach(() => {
  store = new MemoryCustomerStore();
  service = createCustomerService({ store });
});

describe('create', () => {
  it('applies the defaults and the server-assigned fields, matching the Customer schema', async () => {
    const { customer, replayed } = await service.create(seller, ada);
    assertCustomerSchema(customer);
    expect(replayed).toBe(false);
    // Every default applied, both timestamps the same instant: the customer the store contract's sample describes.
    expect(customer).toEqual(
      sampleCustomer(seller.sellerId, { ...ada, id: customer.id, created_at: customer.created_at, updated_at: customer.created_at }),
    );
    expect(await service.get(seller, customer.id)).toEqual(customer);
  });

  it('keeps given values, including an explicit null language', async () => {
    const address = { street: 'Hauptstraße 1', city: 'Berlin' };
    const { customer } = await service.create(seller, {
      ...ada,
      language: null,
      status: 'inactive',
      address_data: address,
    });
    assertCustomerSchema(customer);
    expect(customer).toMatchObject({ language: null, status: 'inactive', address_data: address });
  });

  it('rejects invalid bodies and stores nothing', async () => {
    expect(await failure(service.create(seller, { ...ada, email: undefined }))).toEqual({
      status: 400,
      message: 'email is required',
    });
    expect(store.countCustomers(seller.sellerId)).toBe(0);
  });

  it('refuses a second customer with the same email in any letter case (409), per seller', async () => {
    await service.create(seller, ada);
    expect(await failure(service.create(seller, { ...ada, email: 'ADA@Example.COM' }))).toEqual({
      status: 409,
      message: 'A customer with email ADA@Example.COM already exists',
    });
    await expect(service.create(other, ada)).resolves.toBeTruthy();
    expect(store.countCustomers(seller.sellerId)).toBe(1);
  });

  it('enforces the plan limit (403, naming the limit), and deleting frees a place', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      ids.push((await service.create(seller, { ...ada, email: `a${n}@example.com` })).customer.id);
    }
    expect(await failure(service.create(seller, { ...ada, email: 'a4@example.com' }))).toEqual({
      status: 403,
      message: 'Customer limit reached; your subscription plan allows 3 customers',
    });
    await service.delete(seller, ids[0]!);
    await expect(service.create(seller, { ...ada, email: 'a4@example.com' })).resolves.toBeTruthy();
  });

  it('words a limit of one in the singular', async () => {
    const one = { ...seller, customerLimit: 1 };
    await service.create(one, ada);
    expect((await failure(service.create(one, { ...ada, email: 'b@example.com' }))).message).toBe(
      'Customer limit reached; your subscription plan allows 1 customer',
    );
  });

  it('keeps the plan limit and unique email under concurrent creates', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, n) => service.create(seller, { ...ada, email: `c${n}@example.com` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(store.countCustomers(seller.sellerId)).toBe(3);

    const sameEmail = await Promise.allSettled(
      Array.from({ length: 5 }, () => service.create(other, { ...ada, email: 'same@example.com' })),
    );
    expect(sameEmail.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(store.countCustomers(other.sellerId)).toBe(1);
  });
});

describe('idempotent create', () => {
  it('answers a retry with the same key and body with the original customer', async () => {
    const first = await service.create(seller, ada, { idempotencyKey: 'key-1' });
    // Same JSON value, other key order: the same request.
    const reordered = { email: ada.email, last_name: ada.last_name, first_name: ada.first_name };
    const second = await service.create(seller, reordered, { idempotencyKey: 'key-1' });
    expect(second).toEqual({ customer: first.customer, replayed: true });
    expect(store.countCustomers(seller.sellerId)).toBe(1);
  });

  it('rejects the same key with another body (400) and stores nothing', async () => {
    await service.create(seller, ada, { idempotencyKey: 'key-1' });
    expect(
      await failure(service.create(seller, { ...ada, first_name: 'Augusta' }, { idempotencyKey: 'key-1' })),
    ).toEqual({
      status: 400,
      message:
        'Idempotency-Key was already used with a different request body; use a new key for a new request',
    });
    expect(store.countCustomers(seller.sellerId)).toBe(1);
  });

  it('scopes keys to the seller and remembers only successful creates', async () => {
    const mine = await service.create(seller, ada, { idempotencyKey: 'key-1' });
    const theirs = await service.create(other, ada, { idempotencyKey: 'key-1' });
    expect(theirs.replayed).toBe(false);
    expect(theirs.customer.id).not.toBe(mine.customer.id);

    // A create that failed (409) is not remembered: once the conflict is gone, the retry creates.
    expect((await failure(service.create(seller, ada, { idempotencyKey: 'key-2' }))).status).toBe(409);
    await service.delete(seller, mine.customer.id);
    const retried = await service.create(seller, ada, { idempotencyKey: 'key-2' });
    expect(retried.replayed).toBe(false);
    expect(retried.customer.id).not.toBe(mine.customer.id);
  });

  it('forgets a key after 24 hours', async () => {
    let now = Date.parse('2026-11-25T09:00:00.000Z');
    service = createCustomerService({ store, clock: () => new Date(now).toISOString() });
    const first = await service.create(seller, ada, { idempotencyKey: 'key-1' });
    now += 24 * 60 * 60 * 1000 - 1;
    expect((await service.create(seller, ada, { idempotencyKey: 'key-1' })).customer).toEqual(first.customer);
    now += 1;
    // Expired: treated as a new create, which now meets the existing email.
    expect((await failure(service.create(seller, ada, { idempotencyKey: 'key-1' }))).status).toBe(409);
  });

  it('rejects a malformed Idempotency-Key (400)', async () => {
    expect(await failure(service.create(seller, ada, { idempotencyKey: 'has space' }))).toEqual({
      status: 400,
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters (! to ~, no spaces)',
    });
  });
});

describe('get, update, delete', () => {
  it('hides other sellers’ customers and malformed ids behind the same 404', async () => {
    const { customer } = await service.create(seller, ada);
    const notFound = { status: 404, message: 'Customer not found' };
    for (const id of [customer.id, MISSING, 'not-a-uuid', '']) {
      expect(await failure(service.get(other, id))).toEqual(notFound);
      expect(await failure(service.update(other, id, { status: 'inactive' }))).toEqual(notFound);
      expect(await failure(service.delete(other, id))).toEqual(notFound);
    }
    expect(await service.get(seller, customer.id.toUpperCase())).toEqual(customer);
  });

  it('updates only the given properties, clears with null and refreshes updated_at', async () => {
    const { customer } = await service.create(seller, {
      ...ada,
      company_name: 'Analytical Engines Ltd',
      address_data: { street: 'St James’s Square', city: 'London' },
    });
    const updated = await service.update(seller, customer.id, {
      status: 'suspended',
      company_name: null,
      address_data: { city: 'Marylebone' },
    });
    assertCustomerSchema(updated);
    expect(updated).toEqual({
      ...customer,
      status: 'suspended',
      company_name: null,
      address_data: { city: 'Marylebone' },
      updated_at: updated.updated_at,
    });
    expect(updated.updated_at > customer.updated_at).toBe(true);
    expect(await service.get(seller, customer.id)).toEqual(updated);
  });

  it('validates the body before looking the customer up (400 before 404)', async () => {
    expect((await failure(service.update(seller, MISSING, {}))).status).toBe(400);
    expect((await failure(service.update(seller, 'not-a-uuid', { id: 'x' }))).status).toBe(400);
  });

  it('allows keeping the own email in another case, refuses another customer’s (409)', async () => {
    const { customer } = await service.create(seller, ada);
    await service.create(seller, { ...ada, email: 'grace@example.com' });
    await expect(service.update(seller, customer.id, { email: 'ADA@example.com' })).resolves.toMatchObject({
      email: 'ADA@example.com',
    });
    expect(await failure(service.update(seller, customer.id, { email: 'Grace@example.com' }))).toEqual({
      status: 409,
      message: 'A customer with email Grace@example.com already exists',
    });
    expect((await service.get(seller, customer.id)).email).toBe('ADA@example.com');
  });

  it('deletes permanently', async () => {
    const { customer } = await service.create(seller, ada);
    await service.delete(seller, customer.id);
    expect((await failure(service.get(seller, customer.id))).status).toBe(404);
    expect((await failure(service.delete(seller, customer.id))).status).toBe(404);
  });
});
