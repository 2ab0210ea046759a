// Type tests of customers.list() and findByEmail(), run by vitest's typecheck (tsc).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIPromise,
  CursorPage,
  Customer,
  CustomerListParams,
  CustomersClient,
  operations,
  PagePromise,
  Result,
  WithResponse,
} from '../../src/index';

declare const client: CustomersClient;
type Query = NonNullable<operations['listCustomers']['parameters']['query']>;

describe('list()', () => {
  it('resolves to a page of Customer with the API fields', async () => {
    const page = await client.customers.list();
    expectTypeOf(page).toEqualTypeOf<CursorPage<Customer>>();
    expectTypeOf(page.data).toEqualTypeOf<Customer[]>();
    expectTypeOf(page.has_more).toEqualTypeOf<boolean>();
    expectTypeOf(page.next_cursor).toEqualTypeOf<string | null>();
    expectTypeOf(page.hasNextPage).returns.toEqualTypeOf<boolean>();
    expectTypeOf(page.getNextPage).returns.toEqualTypeOf<PagePromise<Customer>>();
    expectTypeOf(page.getNextPage).parameter(0).toEqualTypeOf<{ limit?: number | undefined } | undefined>();
  });

  it('is an APIPromise of the page, with withResponse() and result()', () => {
    const promise = client.customers.list({ limit: 10 });
    expectTypeOf(promise).toMatchTypeOf<APIPromise<CursorPage<Customer>>>();
    expectTypeOf(promise.withResponse()).resolves.toEqualTypeOf<WithResponse<CursorPage<Customer>>>();
    expectTypeOf(promise.result()).resolves.toEqualTypeOf<Result<CursorPage<Customer>>>();
  });

  it('iterates customers, pages iterate pages', async () => {
    for await (const customer of client.customers.list({ status: 'active' })) {
      expectTypeOf(customer).toEqualTypeOf<Customer>();
    }
    const page = await client.customers.list();
    for await (const customer of page) expectTypeOf(customer).toEqualTypeOf<Customer>();
    for await (const each of page.iterPages()) expectTypeOf(each).toEqualTypeOf<CursorPage<Customer>>();
  });

  it('takes the generated query, where the date-time bounds may also be Dates', () => {
    expectTypeOf(client.customers.list).parameter(0).toEqualTypeOf<CustomerListParams | undefined>();
    expectTypeOf<CustomerListParams['status']>().toEqualTypeOf<Query['status']>();
    expectTypeOf<CustomerListParams['limit']>().toEqualTypeOf<Query['limit']>();
    expectTypeOf<CustomerListParams['created_after']>().toEqualTypeOf<string | Date | undefined>();
    void client.customers.list({ created_after: new Date(), created_before: '2026-12-01T00:00:00Z', email: 'a@b.c', cursor: 'c' });
    // @ts-expect-error not a status
    void client.customers.list({ status: 'deleted' });
    // @ts-expect-error not a query parameter of the operation
    void client.customers.list({ sort: 'email' });
    // @ts-expect-error limit is a number
    void client.customers.list({ limit: '10' });
  });
});

describe('findByEmail()', () => {
  it('resolves to a Customer or null', () => {
    expectTypeOf(client.customers.findByEmail('ada@example.com')).toEqualTypeOf<APIPromise<Customer | null>>();
    expectTypeOf(client.customers.findByEmail).parameter(0).toEqualTypeOf<string>();
  });
});
