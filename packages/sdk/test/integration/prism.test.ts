import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type CustomersApiError,
  CustomersClient,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  UnsupportedMediaTypeError,
} from '../../src/index';
import { ADA, ID, KEY } from '../helpers/fixtures';
import { freePort, type Prism, startPrism } from '../helpers/prism';

// Prism serves the examples of ../../openapi.yaml and validates requests (key, body, path id).
let prism: Prism;
let client: CustomersClient;

beforeAll(async () => {
  prism = await startPrism();
  client = new CustomersClient({ apiKey: KEY, baseUrl: prism.baseUrl });
});
afterAll(async () => {
  await prism?.stop();
});

const prefer = (value: string) => ({ headers: { Prefer: value } });
const MINIMAL = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

async function failure(promise: PromiseLike<unknown>): Promise<CustomersApiError> {
  try {
    await promise;
  } catch (err) {
    return err as CustomersApiError;
  }
  throw new Error('expected the call to fail');
}

describe('success against Prism', () => {
  it('create returns the created customer and its request id', async () => {
    const full = {
      first_name: 'Max',
      last_name: 'Mustermann',
      email: 'max.mustermann@example.de',
      company_name: 'Mustermann GmbH',
      legal_entity: 'GmbH',
      language: 'de',
      status: 'active',
      address_data: { street: 'Hauptstraße 1', city: 'Berlin', postal_code: '10115', country: 'DE' },
      postal_redirect_address: { street: 'Postfach 12 34', city: 'Hamburg', postal_code: '20095', country: 'DE' },
    } as const;
    const { data, response, requestId } = await client.customers.create(full).withResponse();
    expect(response.status).toBe(201);
    expect(data).toEqual(ADA);
    expect(requestId).toBe('req_7Hc2kQ9xWm');
  });

  it('get returns the customer', async () => {
    expect(await client.customers.get(ID)).toEqual(ADA);
  });

  it('update returns the updated customer', async () => {
    const updated = await client.customers.update(ID, { status: 'suspended' });
    expect(updated).toEqual({ ...ADA, status: 'suspended', updated_at: '2026-11-25T10:15:42.120Z' });
  });

  it('delete resolves with nothing', async () => {
    const { data, response } = await client.customers.delete(ID).withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
  });

  it('list resolves to the documented first page, and getNextPage() sends a cursor Prism accepts', async () => {
    const page = await client.customers.list({ status: 'active', limit: 20, created_after: new Date('2026-11-01T00:00:00Z') });
    expect(page.data).toEqual([ADA]);
    expect(page.hasNextPage()).toBe(true);
    const next = await page.getNextPage({ limit: 100 });
    expect(next.data).toEqual([ADA]);
  });

  it('findByEmail returns the documented customer', async () => {
    expect(await client.customers.findByEmail('ada+tag@example.com', prefer('example=byEmail'))).toEqual(ADA);
  });

  it('sends a valid Idempotency-Key and X-Request-Id (Prism validates both headers)', async () => {
    await expect(client.customers.create(MINIMAL, { idempotencyKey: 'signup-42', requestId: 'req_mine' })).resolves.toEqual(ADA);
  });
});

describe('every documented error example', () => {
  it.each([
    ['create', '400 missingRequired', () => client.customers.create(MINIMAL, prefer('code=400, example=missingRequired')), BadRequestError, 'first_name is required'],
    ['create', '400 tooLong', () => client.customers.create(MINIMAL, prefer('code=400, example=tooLong')), BadRequestError, 'first_name must be at most 100 characters'],
    ['create', '400 invalidEmail', () => client.customers.create(MINIMAL, prefer('code=400, example=invalidEmail')), BadRequestError, 'email must be a valid email address'],
    ['create', '400 unknownProperty', () => client.customers.create(MINIMAL, prefer('code=400, example=unknownProperty')), BadRequestError, 'nickname is not an allowed property'],
    ['create', '400 idempotencyKeyReused', () => client.customers.create(MINIMAL, prefer('code=400, example=idempotencyKeyReused')), BadRequestError, 'Idempotency-Key was already used'],
    ['create', '401 missingKey', () => client.customers.create(MINIMAL, prefer('code=401, example=missingKey')), AuthenticationError, 'An API key is required'],
    ['create', '401 invalidKey', () => client.customers.create(MINIMAL, prefer('code=401, example=invalidKey')), AuthenticationError, 'invalid, revoked or expired'],
    ['create', '403 limitReached', () => client.customers.create(MINIMAL, prefer('code=403')), PermissionDeniedError, 'allows 100 customers'],
    ['create', '409 duplicateEmail', () => client.customers.create(MINIMAL, prefer('code=409')), ConflictError, 'already exists'],
    ['create', '413 tooLarge', () => client.customers.create(MINIMAL, prefer('code=413')), PayloadTooLargeError, 'at most 65536 bytes'],
    ['create', '415 wrongType', () => client.customers.create(MINIMAL, prefer('code=415')), UnsupportedMediaTypeError, 'Content-Type must be application/json'],
    ['create', '500 fault', () => client.customers.create(MINIMAL, { maxRetries: 0, ...prefer('code=500') }), InternalServerError, 'An unexpected error occurred'],
    ['get', '401', () => client.customers.get(ID, prefer('code=401')), AuthenticationError, 'An API key is required'],
    ['get', '404 notFound', () => client.customers.get(ID, prefer('code=404')), NotFoundError, 'Customer not found'],
    ['get', '500', () => client.customers.get(ID, { maxRetries: 0, ...prefer('code=500') }), InternalServerError, 'quote the X-Request-Id'],
    ['update', '400 emptyBody', () => client.customers.update(ID, { status: 'active' }, prefer('code=400, example=emptyBody')), BadRequestError, 'at least 1 property'],
    ['update', '400 invalidStatus', () => client.customers.update(ID, { status: 'active' }, prefer('code=400, example=invalidStatus')), BadRequestError, 'status must be one of'],
    ['update', '401', () => client.customers.update(ID, { status: 'active' }, prefer('code=401')), AuthenticationError, 'An API key is required'],
    ['update', '404', () => client.customers.update(ID, { status: 'active' }, prefer('code=404')), NotFoundError, 'Customer not found'],
    ['update', '409', () => client.customers.update(ID, { email: 'ada@example.com' }, prefer('code=409')), ConflictError, 'already exists'],
    ['update', '413', () => client.customers.update(ID, { status: 'active' }, prefer('code=413')), PayloadTooLargeError, '65536 bytes'],
    ['update', '415', () => client.customers.update(ID, { status: 'active' }, prefer('code=415')), UnsupportedMediaTypeError, 'application/json'],
    ['update', '500', () => client.customers.update(ID, { status: 'active' }, { maxRetries: 0, ...prefer('code=500') }), InternalServerError, 'unexpected error'],
    ['delete', '401', () => client.customers.delete(ID, prefer('code=401')), AuthenticationError, 'An API key is required'],
    ['delete', '404', () => client.customers.delete(ID, prefer('code=404')), NotFoundError, 'Customer not found'],
    ['delete', '500', () => client.customers.delete(ID, { maxRetries: 0, ...prefer('code=500') }), InternalServerError, 'unexpected error'],
  ] as const)('%s %s', async (_op, _example, call, Class, text) => {
    const err = await failure(call());
    expect(err).toBeInstanceOf(Class);
    expect(err.message).toContain(text);
    expect(err.requestId).toBe('req_7Hc2kQ9xWm');
    expect(typeof err.error).toBe('string');
    expect(err.headers?.get('content-type')).toContain('application/json');
  });

  it('retries a 500 from Prism (maxRetries 2: three requests), then throws', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // zero backoff: no real sleeping
    let requests = 0;
    const counting = new CustomersClient({
      apiKey: KEY,
      baseUrl: prism.baseUrl,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    try {
      await expect(counting.customers.get(ID, prefer('code=500'))).rejects.toBeInstanceOf(InternalServerError);
      expect(requests).toBe(3);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it.each([
    ['limit above 100', { limit: 101 }],
    ['a bare date', { created_after: '2026-11-01' }],
    ['an unknown status', { status: 'deleted' as 'active' }],
  ])('Prism refuses a list with %s: the documented 400, a BadRequestError', async (_case, params) => {
    const err = await failure(client.customers.list(params));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.status).toBe(400);
  });

  it('Prism answers a malformed id with the 400 getCustomer now declares (its validation failure; the real server says 404): a BadRequestError', async () => {
    // Prism answers a request it finds invalid with a declared 400, else its own 422; since issue 40 getCustomer
    // declares the 400 of a bad Customers-Version, so Prism picks that.
    const err = await failure(client.customers.get('not-a-uuid'));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.status).toBe(400);
  });

  it('Prism rejects a body the contract forbids with the documented 400', async () => {
    // @ts-expect-error nickname is not a property of CustomerCreate
    const err = await failure(client.customers.create({ ...MINIMAL, nickname: 'ada' }));
    expect(err).toBeInstanceOf(BadRequestError);
  });
});

describe('smoke scripts against Prism (built package)', () => {
  const run = promisify(execFile);
  const dir = fileURLToPath(new URL('../smoke/', import.meta.url));
  it.each(['smoke.mjs', 'smoke.cjs'])('%s passes', async (script) => {
    const { stdout } = await run(process.execPath, [`${dir}${script}`], {
      env: { ...process.env, BASE_URL: prism.baseUrl, API_KEY: KEY },
    });
    expect(stdout).toMatch(/^smoke (esm|cjs) ok: /);
  });

  it('smoke.mjs fails (exit 1, one line) when nothing listens', async () => {
    const closed = await freePort(); // nothing listens there any more
    const err = await run(process.execPath, [`${dir}smoke.mjs`], {
      env: { ...process.env, BASE_URL: `http://127.0.0.1:${closed}`, API_KEY: KEY },
    }).catch((e: { code: number; stdout: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stdout: string }).stdout).toMatch(/^smoke esm FAIL: ConnectionError: .*ECONNREFUSED/);
  });
});
