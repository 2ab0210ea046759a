// The request descriptions resources hand to the request loop are typed by the contract's `paths`, as openapi-fetch
// types its calls: a template the contract lacks, a missing path parameter or a wrong body does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { paths } from '../../src/generated/openapi';
import type { ApiRequest } from '../../src/internal/http';

/** The type of every query parameter of every operation of the contract. */
type QueryValue = {
  [P in keyof paths]: {
    [M in keyof paths[P]]: paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q>[keyof NonNullable<Q>] : never;
  }[keyof paths[P]];
}[keyof paths];

describe('ApiRequest', () => {
  it('accepts each operation of the contract with its parameters and body', () => {
    expectTypeOf({ method: 'GET', path: '/api/customers/{id}', params: { path: { id: 'x' } } } as const).toExtend<ApiRequest>();
    expectTypeOf({ method: 'GET', path: '/api/customers', params: { query: { limit: 1 } } } as const).toExtend<ApiRequest>();
    expectTypeOf({
      method: 'POST',
      path: '/api/customers',
      body: { first_name: 'A', last_name: 'L', email: 'a@example.com' },
      params: { header: { 'Idempotency-Key': 'k' } },
    } as const).toExtend<ApiRequest>();
  });

  it('rejects a path template the contract lacks, a method the path does not have, a missing path parameter', () => {
    // @ts-expect-error no such path in openapi.yaml
    const unknownPath: ApiRequest = { method: 'GET', path: '/api/customer/{id}', params: { path: { id: 'x' } } };
    // @ts-expect-error /api/customers/{id} has no POST
    const wrongMethod: ApiRequest = { method: 'POST', path: '/api/customers/{id}', params: { path: { id: 'x' } } };
    // @ts-expect-error the id path parameter is required
    const noParams: ApiRequest = { method: 'DELETE', path: '/api/customers/{id}' };
    // @ts-expect-error the id path parameter is required
    const noId: ApiRequest = { method: 'DELETE', path: '/api/customers/{id}', params: { path: {} } };
    // @ts-expect-error a hand-encoded path is not a template of the contract
    const handEncoded: ApiRequest = { method: 'GET', path: `/api/customers/${encodeURIComponent('x')}` };
    expectTypeOf([unknownPath, wrongMethod, noParams, noId, handEncoded]).toBeArray();
  });

  it('rejects a query parameter or a body the operation does not take', () => {
    // @ts-expect-error listCustomers has no `sort` query parameter
    const badQuery: ApiRequest = { method: 'GET', path: '/api/customers', params: { query: { sort: 'asc' } } };
    // @ts-expect-error a create needs the CustomerCreate body
    const noBody: ApiRequest = { method: 'POST', path: '/api/customers' };
    // @ts-expect-error email must be a string
    const badBody: ApiRequest = { method: 'PATCH', path: '/api/customers/{id}', params: { path: { id: 'x' } }, body: { email: 1 } };
    expectTypeOf([badQuery, noBody, badBody]).toBeArray();
  });

  it('has only primitive query parameters (the request loop serializes no arrays or objects: http.ts)', () => {
    expectTypeOf<QueryValue>().toExtend<string | number | boolean | undefined>();
    expectTypeOf<QueryValue>().not.toBeNever();
  });
});
