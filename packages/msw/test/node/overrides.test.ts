import { createCustomersMock, type Customer } from '@customers-api/msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const BASE_URL = 'http://overrides.test';
const KEY = `sk_live_${'A'.repeat(48)}`;
const mock = createCustomersMock({
  baseUrl: BASE_URL,
  seed: [{ customers: [{ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }] }],
});
const server = setupServer(...mock.handlers);
const call = (method: string, path: string, body?: unknown) =>
  fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json', 'X-Request-Id': 'req-override-1' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

describe('mock.use (typed overrides)', () => {
  it('answers one operation with the override, leaving the others to the mock', async () => {
    const [grace] = await mock.ready;
    mock.use('getCustomer', ({ params }) => ({ status: 200, body: { ...grace!, id: params.id, first_name: 'Override' } }));
    const response = await call('GET', '/api/customers/abc');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req-override-1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ id: 'abc', first_name: 'Override' });
    expect((await call('GET', '/api/customers?limit=5')).status).toBe(200); // listCustomers: the mock
  });

  it('gives the resolver the body and query as sent; undefined falls through to the mock', async () => {
    const seen: unknown[] = [];
    mock.use('createCustomer', ({ validBody }) => {
      seen.push(validBody?.email);
      return validBody?.email === 'taken@example.com'
        ? { status: 409, body: { error: 'Conflict', message: 'forced by the test' } }
        : undefined;
    });
    mock.use('listCustomers', ({ query }) => (seen.push(query.limit), undefined));
    expect((await call('POST', '/api/customers', { first_name: 'T', last_name: 'T', email: 'taken@example.com' })).status).toBe(409);
    const created = await call('POST', '/api/customers', { first_name: 'A', last_name: 'L', email: 'ada@example.com' });
    expect(created.status).toBe(201); // the mock read the body the override had read too
    expect(((await created.json()) as Customer).email).toBe('ada@example.com');
    await call('GET', '/api/customers?limit=7');
    expect(seen).toEqual(['taken@example.com', 'ada@example.com', '7']);
  });

  it('lets the newest override answer first, and reset()/resetOverrides() remove them', async () => {
    const [grace] = await mock.ready;
    mock.use('deleteCustomer', () => ({ status: 404, body: { error: 'Not Found', message: 'first' } }));
    mock.use('deleteCustomer', () => ({ status: 500, body: { error: 'Internal Server Error', message: 'newest' } }));
    expect((await call('DELETE', `/api/customers/${grace!.id}`)).status).toBe(500);
    mock.resetOverrides();
    expect((await call('GET', `/api/customers/${grace!.id}`)).status).toBe(200);
    mock.use('getCustomer', () => ({ status: 404, body: { error: 'Not Found', message: 'gone' } }));
    await mock.reset();
    expect((await call('GET', `/api/customers/${grace!.id}`)).status).toBe(200);
  });
});

describe('mock.use: the body as sent, and raw responses', () => {
  it('gives `body` exactly as sent and `validBody` only when the schema accepts it', async () => {
    const seen: Array<[unknown, unknown]> = [];
    mock.use('createCustomer', ({ body, validBody }) => void seen.push([body, validBody]));
    mock.use('updateCustomer', ({ body, validBody }) => void seen.push([body, validBody]));
    const bad = { first_name: 'A', email: 42 };
    const good = { first_name: 'A', last_name: 'L', email: 'ada@example.com' };
    expect((await call('POST', '/api/customers', bad)).status).toBe(400); // the mock refuses what validBody refused
    expect((await call('POST', '/api/customers', good)).status).toBe(201);
    await call('PATCH', '/api/customers/x', {});
    expect(seen).toEqual([
      [bad, undefined],
      [good, good],
      [{}, undefined], // an empty update is refused by the schema
    ]);
  });

  it('sends a raw Response as built: any status, headers and body, JSON or not', async () => {
    mock.use('getCustomer', ({ params }) =>
      params.id === 'teapot' ? new Response('<h1>I am a teapot</h1>', { status: 418, headers: { 'Content-Type': 'text/html' } }) : undefined,
    );
    const raw = await call('GET', '/api/customers/teapot');
    expect([raw.status, raw.headers.get('content-type'), await raw.text()]).toEqual([418, 'text/html', '<h1>I am a teapot</h1>']);
    expect(raw.headers.get('x-request-id')).toBeNull(); // nothing added: exactly what the override built
    expect((await call('GET', '/api/customers/other')).status).toBe(404); // the mock answers the rest
  });
});

describe('nextResponse with a success body', () => {
  it('answers the forced body once, stores nothing, then the mock answers again', async () => {
    const [grace] = await mock.ready;
    const fake: Customer = { ...grace!, first_name: 'Forced' };
    mock.nextResponse('getCustomer', { status: 200, body: fake });
    const forced = await call('GET', `/api/customers/${grace!.id}`);
    expect([forced.status, ((await forced.json()) as Customer).first_name]).toEqual([200, 'Forced']);
    expect(((await (await call('GET', `/api/customers/${grace!.id}`)).json()) as Customer).first_name).toBe('Grace');

    mock.nextResponse('createCustomer', { status: 201, body: fake });
    const created = await call('POST', '/api/customers', { first_name: 'A', last_name: 'L', email: 'ada@example.com' });
    expect([created.status, created.headers.get('location')]).toEqual([201, `/api/customers/${grace!.id}`]);
    expect(mock.store.countCustomers(grace!.seller_id)).toBe(1);
  });

  it('refuses a status the operation does not succeed with', () => {
    expect(() => mock.nextResponse('getCustomer', { status: 201 as 200, body: {} as Customer })).toThrow(
      /status 201 cannot be forced/,
    );
  });
});
