// The README's vitest example, verbatim but for the import path and the marked lines that prove the forced
// answers really happened, followed by the change-events section's tests (which continue it): if this fails,
// the README is wrong.
import { ConflictError, ConnectionError, CustomersClient } from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createCustomersMock } from '../../src/index.js';

const BASE_URL = 'http://127.0.0.1:3000';
const mock = createCustomersMock({
  baseUrl: BASE_URL,
  seed: [{ customers: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }] }],
});
const server = setupServer(...mock.handlers);
const statuses: number[] = []; // not in the README: what the handlers answered, in order
server.events.on('response:mocked', ({ response }) => statuses.push(response.status)); // not in the README
// No `sellers` option: any sk_live_ + 48 letters/digits key is the one default seller.
const client = new CustomersClient({ apiKey: mock.defaultSeller.apiKey, baseUrl: BASE_URL });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset()); // back to the seeded customers; forced responses dropped
afterEach(() => void (statuses.length = 0)); // not in the README
afterAll(() => server.close());

it('reads a seeded customer', async () => {
  const [grace] = await mock.ready;
  expect(await client.customers.get(grace!.id)).toEqual(grace);
});

it('refuses a duplicate email like the server', async () => {
  await expect(
    client.customers.create({ first_name: 'G', last_name: 'H', email: 'GRACE@example.com' }),
  ).rejects.toBeInstanceOf(ConflictError);
});

it('survives a 503: the SDK retries and creates exactly one customer', async () => {
  mock.nextResponse('createCustomer', { status: 503, headers: { 'Retry-After': '0' } });
  const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  expect(mock.store.countCustomers(ada.seller_id)).toBe(2); // Grace and Ada
  expect(statuses).toEqual([503, 201]); // not in the README: the 503 was answered, then the retry created Ada
});

it('reports a dropped connection', async () => {
  mock.nextResponse('getCustomer', { networkError: true });
  const [grace] = await mock.ready;
  await expect(client.customers.get(grace!.id, { maxRetries: 0 })).rejects.toBeInstanceOf(ConnectionError);
});

// "Change events (webhooks)", verbatim.
it('tells the portal that Ada was suspended', async () => {
  const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  await client.customers.update(ada.id, { status: 'suspended' });

  const event = await mock.nextEvent('customer.updated'); // a CustomerUpdatedEvent
  expect(event.data.changed_fields).toEqual(['status']);
  expect(event.data.customer.status).toBe('suspended'); // inactive or suspended: must not sign in
  expect(event.data.sequence).toBe(2);
});

it('passes every change to your handler, in order', async () => {
  const seen: string[] = [];
  const stop = mock.onEvent((event) => seen.push(`${event.type} ${event.data.sequence}`)); // e.g. yourHandler(event)
  const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  await client.customers.delete(ada.id);
  stop();
  expect(seen).toEqual(['customer.created 1', 'customer.deleted 2']);
});

// The journal section's example ("what your code sent"), verbatim: it runs after the seeded suite above, so it must
// not create the seeded email.
it('creates once, with an Idempotency-Key, even when the first answer is a 503', async () => {
  mock.nextResponse('createCustomer', { status: 503, headers: { 'Retry-After': '0' } });
  await client.customers.create({ first_name: 'Katherine', last_name: 'Johnson', email: 'katherine@example.com' });

  const creates = mock.requests({ operation: 'createCustomer' });
  expect(creates.map((entry) => entry.status)).toEqual([503, 201]); // the SDK retried
  expect(new Set(creates.map((entry) => entry.headers['idempotency-key'])).size).toBe(1);
  // CustomerCreate | string | null: the JSON body as sent, its text when it was not JSON, null when there was none
  expect(creates[1]?.body).toMatchObject({ email: 'katherine@example.com' });
  expect(mock.requests({ method: 'DELETE' })).toEqual([]);
});
