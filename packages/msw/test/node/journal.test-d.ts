import { createCustomersMock, type CustomerCreate, type CustomerUpdate, type JournalEntry, type OperationId } from '@customers-api/msw';
import { describe, expectTypeOf, it } from 'vitest';

const mock = createCustomersMock();

describe('typed journal entries', () => {
  it('narrow the body to the operation given', () => {
    const [create] = mock.requests({ operation: 'createCustomer' });
    expectTypeOf(create!.operation).toEqualTypeOf<'createCustomer'>();
    expectTypeOf(create!.body).toEqualTypeOf<CustomerCreate | string | null>();
    expectTypeOf(mock.requests({ operation: 'updateCustomer' })[0]!.body).toEqualTypeOf<CustomerUpdate | string | null>();
    expectTypeOf(mock.requests({ operation: 'listCustomers' })[0]!.body).toEqualTypeOf<unknown>();
  });

  it('are the plain journal entries without an operation filter', () => {
    const [any] = mock.requests({ status: 404 });
    expectTypeOf(any!.operation).toEqualTypeOf<OperationId | null>();
    expectTypeOf(any!.status).toEqualTypeOf<JournalEntry['status']>();
    // @ts-expect-error not an operation of openapi.yaml
    mock.requests({ operation: 'listCustomer' });
  });
});
