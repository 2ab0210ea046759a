import { createCustomersMock, type Customer, type OperationResponse, type RequestBody } from '@customers-api/msw';
import { describe, expectTypeOf, it } from 'vitest';

const mock = createCustomersMock();
declare const customer: Customer;

describe('typed overrides and forced bodies', () => {
  it('types what the resolver gets from openapi.yaml', () => {
    mock.use('updateCustomer', ({ params, body, validBody, query }) => {
      expectTypeOf(params).toEqualTypeOf<{ id: string }>();
      expectTypeOf(body).toEqualTypeOf<unknown>(); // as sent: nothing is known before validation
      expectTypeOf(validBody).toEqualTypeOf<RequestBody<'updateCustomer'> | undefined>();
      expectTypeOf(query).toEqualTypeOf<Record<string, never>>();
      return undefined;
    });
    mock.use('getCustomer', ({ body }) => {
      expectTypeOf(body).toEqualTypeOf<undefined>(); // getCustomer takes no body
      return new Response('not JSON', { status: 418 }); // the raw escape hatch
    });
    // @ts-expect-error the body as sent is unknown: read it only after checking it (or use validBody)
    mock.use('createCustomer', ({ body }) => (body.email === 'x' ? undefined : undefined));
    mock.use('listCustomers', ({ query }) => {
      expectTypeOf(query.limit).toEqualTypeOf<string | undefined>();
      return { status: 200, body: { data: [customer], has_more: false, next_cursor: null } };
    });
  });

  it('accepts only documented statuses with their documented bodies', () => {
    expectTypeOf<OperationResponse<'deleteCustomer'>['status']>().toEqualTypeOf<204 | 400 | 401 | 403 | 404 | 429 | 500 | 503>();
    mock.use('deleteCustomer', () => ({ status: 204 }));
    // @ts-expect-error a Customer is not getCustomer's 404 body
    mock.use('getCustomer', () => ({ status: 404, body: customer }));
    // @ts-expect-error getCustomer documents no 201
    mock.use('getCustomer', () => ({ status: 201, body: customer }));
    // @ts-expect-error the 200 body must be a whole Customer
    mock.use('getCustomer', () => ({ status: 200, body: { id: 'x' } }));
    // @ts-expect-error listCustomers answers a CustomerList, not a Customer
    mock.use('listCustomers', () => ({ status: 200, body: customer }));
  });

  it('forces only the operation\'s own success status, with its documented body', () => {
    mock.nextResponse('getCustomer', { status: 200, body: customer });
    mock.nextResponse('createCustomer', { status: 201, body: customer, headers: { 'X-Extra': '1' } });
    mock.nextResponse('deleteCustomer', { status: 204 });
    mock.nextResponse('getCustomer', { status: 503, times: 2 });
    // @ts-expect-error createCustomer succeeds with 201, not 200
    mock.nextResponse('createCustomer', { status: 200, body: customer });
    // @ts-expect-error the body must be a Customer
    mock.nextResponse('getCustomer', { status: 200, body: { first_name: 'Ada' } });
    // @ts-expect-error a success needs its body
    mock.nextResponse('updateCustomer', { status: 200 });
    // @ts-expect-error 204 has no body
    mock.nextResponse('deleteCustomer', { status: 204, body: customer });
  });
});
