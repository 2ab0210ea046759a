// Change events through the published SDK against the handlers: what a seller's test suite waits for.
import { BadRequestError, ConflictError, CustomersClient } from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCustomersMock, type CustomerEvent } from '../../src/index.js';

const BASE = 'http://127.0.0.1:3000';
const grace = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' };
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
const mock = createCustomersMock({ baseUrl: BASE, sellers: [{}, {}] });
const [shop, other] = mock.sellers;
const server = setupServer(...mock.handlers);
const client = new CustomersClient({ apiKey: shop!.apiKey, baseUrl: BASE, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('change events of the MSW mock', () => {
  it('emits customer.created, customer.updated and customer.deleted for create, patch and delete, in order, sequences 1 to 3', async () => {
    const heard: CustomerEvent[] = [];
    const stop = mock.onEvent((event) => heard.push(event));
    const created = await client.customers.create(ada);
    const updated = await client.customers.update(created.id, { status: 'suspended' });
    await client.customers.delete(created.id);
    stop();

    expect(heard.map((event) => [event.type, event.data.sequence])).toEqual([
      ['customer.created', 1],
      ['customer.updated', 2],
      ['customer.deleted', 3],
    ]);
    expect(heard.every((event) => /^evt_[0-9a-f]{32}$/.test(event.id))).toBe(true);
    expect(new Set(heard.map((event) => event.id)).size).toBe(3);
    expect(heard[0]).toMatchObject({ type: 'customer.created', created_at: created.updated_at, data: { customer: created } });
    expect(heard[1]).toMatchObject({ created_at: updated.updated_at, data: { customer: updated, changed_fields: ['status'] } });
    expect(heard[2]!.data.customer).toEqual({ id: created.id, seller_id: shop!.sellerId });
    expect(mock.events()).toEqual(heard);
  });

  it('lets a test wait for the next event of a type after the request that caused it', async () => {
    const created = await client.customers.create(ada);
    await client.customers.update(created.id, { language: 'en', first_name: 'Ada' });
    const updated = await mock.nextEvent('customer.updated');
    expect(updated.data.changed_fields).toEqual(['language']); // typed: CustomerUpdatedEvent
    expect((await mock.nextEvent('customer.created')).data.customer.id).toBe(created.id); // still there, not taken yet
    const deleted = mock.nextEvent('customer.deleted', (event) => event.data.customer.id === created.id);
    await client.customers.delete(created.id);
    expect((await deleted).data.sequence).toBe(3);
    await expect(mock.nextEvent('customer.deleted', { timeoutMs: 20 })).rejects.toThrow('no customer.deleted event within 20 ms (every event so far was taken)');
  });

  it('emits nothing for refused requests, forced answers and overrides', async () => {
    const created = await client.customers.create(ada);
    const before = mock.events().length;
    await expect(client.customers.create({ ...grace, email: 'ADA@example.com' })).rejects.toBeInstanceOf(ConflictError); // 409
    await expect(client.customers.update(created.id, { email: 'not an email' })).rejects.toBeInstanceOf(BadRequestError); // 400
    mock.nextResponse('deleteCustomer', { status: 500 });
    await expect(client.customers.delete(created.id)).rejects.toThrow();
    mock.nextResponse('createCustomer', { status: 201, body: created });
    await client.customers.create(grace);
    mock.use('updateCustomer', () => ({ status: 200, body: created }));
    await client.customers.update(created.id, { status: 'inactive' });
    expect(mock.events()).toHaveLength(before);
    expect(before).toBe(1);
  });

  it("emits another seller's changes too, each naming its seller", async () => {
    const otherClient = new CustomersClient({ apiKey: other!.apiKey, baseUrl: BASE, maxRetries: 0 });
    await otherClient.customers.create(ada);
    await client.customers.create(ada);
    expect(mock.events().map((event) => event.data.customer.seller_id)).toEqual([other!.sellerId, shop!.sellerId]);
  });
});

describe('reset and change events', () => {
  it('keeps listeners and waits under way, forgets the kept events, and emits nothing for the seed it restores', async () => {
    const seeded = createCustomersMock({ baseUrl: BASE, seed: [{ customers: [grace] }] });
    server.use(...seeded.handlers);
    const seededClient = new CustomersClient({ apiKey: seeded.defaultSeller!.apiKey, baseUrl: BASE, maxRetries: 0 });
    const [seededGrace] = await seeded.ready;
    const heard: string[] = [];
    seeded.onEvent((event) => heard.push(`${event.type} ${event.data.sequence}`));
    await seededClient.customers.create(ada);
    const waiting = seeded.nextEvent('customer.updated');

    await seeded.reset();
    expect(seeded.events()).toEqual([]);
    await seededClient.customers.update(seededGrace!.id, { status: 'inactive' });

    expect((await waiting).data.customer.id).toBe(seededGrace!.id);
    expect(heard).toEqual(['customer.created 1', 'customer.updated 2']); // the seeded Grace was created by the seed: no event
    expect(seeded.events().map((event) => event.type)).toEqual(['customer.updated']);
    server.resetHandlers();
  });
});
