import { createCustomersMock, type CustomersMock, type MockSeller } from '@customers-api/msw';
import { describe, expectTypeOf, it } from 'vitest';

// The README's quick start pasted into a .ts file: without a `sellers` option the default seller is always there.
describe('defaultSeller', () => {
  it('is a seller, not possibly undefined, without a sellers option', () => {
    expectTypeOf(createCustomersMock().defaultSeller).toEqualTypeOf<MockSeller>();
    const mock = createCustomersMock({ baseUrl: 'http://api.test' });
    expectTypeOf(mock.defaultSeller.apiKey).toEqualTypeOf<string>();
    expectTypeOf(mock).toMatchTypeOf<CustomersMock>();
  });

  it('may be undefined with sellers given', () => {
    const mock = createCustomersMock({ sellers: [{}] });
    expectTypeOf(mock.defaultSeller).toEqualTypeOf<MockSeller | undefined>();
  });
});
