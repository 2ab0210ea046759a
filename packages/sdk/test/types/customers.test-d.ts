// Type tests of the request and response types, run by vitest's typecheck (tsc).
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Address,
  components,
  Customer,
  CustomerCreate,
  CustomersClient,
  CustomerStatus,
  CustomerUpdate,
  CustomerUpdateFields,
} from '../../src/index';

declare const client: CustomersClient;
type Schemas = components['schemas'];

describe('named types', () => {
  it('are the generated schemas, under their own names', () => {
    expectTypeOf<Customer>().toEqualTypeOf<Schemas['Customer']>();
    expectTypeOf<CustomerCreate>().toEqualTypeOf<Schemas['CustomerCreate']>();
    expectTypeOf<CustomerUpdateFields>().toEqualTypeOf<Schemas['CustomerUpdate']>();
    expectTypeOf<Address>().toEqualTypeOf<Schemas['Address']>();
    expectTypeOf<CustomerStatus>().toEqualTypeOf<'active' | 'inactive' | 'suspended'>();
    expectTypeOf<Customer['address_data']>().toEqualTypeOf<Address | null>();
  });

  it('are what the methods take and return', () => {
    expectTypeOf(client.customers.create).parameter(0).toEqualTypeOf<CustomerCreate>();
    expectTypeOf(client.customers.update).parameter(1).toEqualTypeOf<CustomerUpdate>();
    expectTypeOf(client.customers.get).returns.resolves.toEqualTypeOf<Customer>();
  });
});

describe('CustomerUpdate', () => {
  it('requires at least one property', () => {
    // @ts-expect-error the server answers 400 to an empty update, so it does not compile
    void client.customers.update('id', {});
    // @ts-expect-error a property set to undefined is dropped by JSON: still empty
    void client.customers.update('id', { status: undefined });
  });

  it('accepts any one property, null where the spec allows it, or several', () => {
    expectTypeOf({ status: 'suspended' as const }).toMatchTypeOf<CustomerUpdate>();
    expectTypeOf({ company_name: null }).toMatchTypeOf<CustomerUpdate>();
    expectTypeOf({ first_name: 'Ada', address_data: { city: 'Berlin' } }).toMatchTypeOf<CustomerUpdate>();
    expectTypeOf<Partial<CustomerUpdateFields>>().not.toMatchTypeOf<CustomerUpdate>();
  });

  it('still refuses unknown properties and wrong values', () => {
    // @ts-expect-error not a property of a customer
    void client.customers.update('id', { nickname: 'ada' });
    // @ts-expect-error not an allowed status
    void client.customers.update('id', { status: 'deleted' });
  });
});
