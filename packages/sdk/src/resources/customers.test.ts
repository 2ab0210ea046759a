import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADA, BASE_URL, ID, KEY } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { APIPromise } from '../core/api-promise';
import { BadRequestError, ConflictError, CustomersApiError, NotFoundError, PermissionDeniedError } from '../core/errors';

interface Seen {
  method: string;
  path: string;
  body: unknown;
  contentType: string | null;
}
const seen: Seen[] = [];
const record = async (request: Request) => {
  const text = await request.clone().text();
  seen.push({
    method: request.method,
    path: new URL(request.url).pathname,
    body: text ? JSON.parse(text) : undefined,
    contentType: request.headers.get('content-type'),
  });
};
const headers = { 'X-Request-Id': 'req_msw' };
const fail = (status: number, error: string, message: string) => HttpResponse.json({ error, message }, { status, headers });

const server = setupServer(
  http.post(`${BASE_URL}/api/customers`, async ({ request }) => {
    await record(request);
    const body = (await request.json()) as { email: string };
    if (body.email === 'taken@example.com') return fail(409, 'Conflict', `A customer with email ${body.email} already exists`);
    if (body.email === 'full@example.com') return fail(403, 'Forbidden', 'Customer limit reached; your subscription plan allows 100 customers');
    return HttpResponse.json({ ...ADA, ...body }, { status: 201, headers });
  }),
  http.get(`${BASE_URL}/api/customers/:id`, async ({ request, params }) => {
    await record(request);
    return params.id === ID ? HttpResponse.json(ADA, { headers }) : fail(404, 'Not Found', 'Customer not found');
  }),
  http.patch(`${BASE_URL}/api/customers/:id`, async ({ request }) => {
    await record(request);
    const patch = (await request.json()) as Record<string, unknown>;
    if (Object.keys(patch).length === 0) return fail(400, 'Bad Request', 'body must have at least 1 property');
    return HttpResponse.json({ ...ADA, ...patch, updated_at: '2026-11-25T10:15:42.120Z' }, { headers });
  }),
  http.delete(`${BASE_URL}/api/customers/:id`, async ({ request, params }) => {
    await record(request);
    return params.id === ID ? new HttpResponse(null, { status: 204, headers }) : fail(404, 'Not Found', 'Customer not found');
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  seen.length = 0;
});
afterAll(() => server.close());

const client = new CustomersClient({ apiKey: KEY, baseUrl: BASE_URL, maxRetries: 0 });

describe('client.customers (MSW)', () => {
  it('create POSTs the JSON body and returns the customer', async () => {
    const customer = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', language: 'en' });
    expect(customer).toEqual({ ...ADA, language: 'en' });
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/api/customers',
        body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', language: 'en' },
        contentType: 'application/json',
      },
    ]);
  });

  it('get fetches by id, escaping the id in the path', async () => {
    expect(await client.customers.get(ID)).toEqual(ADA);
    await client.customers.get('a/b?c').catch(() => undefined);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([`GET /api/customers/${ID}`, 'GET /api/customers/a%2Fb%3Fc']);
  });

  it('update PATCHes only the given properties, null included', async () => {
    const updated = await client.customers.update(ID, { status: 'suspended', company_name: null });
    expect(updated.status).toBe('suspended');
    expect(seen[0]).toMatchObject({ method: 'PATCH', path: `/api/customers/${ID}`, body: { status: 'suspended', company_name: null } });
  });

  it('delete resolves with nothing', async () => {
    await expect(client.customers.delete(ID)).resolves.toBeUndefined();
    expect(seen[0]).toMatchObject({ method: 'DELETE', path: `/api/customers/${ID}`, body: undefined, contentType: null });
  });

  it('throws typed errors with the server message, error and request id', async () => {
    const missing = await client.customers.get('6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, error: 'Not Found', requestId: 'req_msw' });
    expect((missing as NotFoundError).apiMessage).toBe('Customer not found');
    expect((missing as Error).message).toContain('Customer not found');
    await expect(client.customers.create({ first_name: 'A', last_name: 'B', email: 'taken@example.com' })).rejects.toBeInstanceOf(ConflictError);
    await expect(client.customers.create({ first_name: 'A', last_name: 'B', email: 'full@example.com' })).rejects.toThrow(/allows 100 customers/);
    await expect(client.customers.create({ first_name: 'A', last_name: 'B', email: 'full@example.com' })).rejects.toBeInstanceOf(PermissionDeniedError);
    // @ts-expect-error an empty update does not compile; a JavaScript caller still gets the server's 400
    await expect(client.customers.update(ID, {})).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.customers.delete('nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('withResponse() exposes the response and the request id', async () => {
    const promise = client.customers.get(ID);
    expect(promise).toBeInstanceOf(APIPromise);
    const { data, response, requestId } = await promise.withResponse();
    expect(data).toEqual(ADA);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(requestId).toBe('req_msw');
  });

  it('result() returns errors as values instead of throwing', async () => {
    const ok = await client.customers.get(ID).result();
    expect(ok).toEqual({ data: ADA, error: undefined, requestId: 'req_msw' });
    const missing = await client.customers.get('00000000-0000-4000-8000-000000000000').result();
    expect(missing.data).toBeUndefined();
    expect(missing.error).toBeInstanceOf(NotFoundError);
    expect(missing.error).toBeInstanceOf(CustomersApiError);
    expect(missing.requestId).toBe('req_msw');
  });

  it('behaves like a promise: then, catch and finally', async () => {
    let finished = false;
    const caught = await client.customers
      .get('nope')
      .catch((e: unknown) => (e as CustomersApiError).status)
      .finally(() => {
        finished = true;
      });
    expect(caught).toBe(404);
    expect(finished).toBe(true);
    expect(await client.customers.get(ID).then((c) => c.first_name)).toBe('Ada');
  });
});
