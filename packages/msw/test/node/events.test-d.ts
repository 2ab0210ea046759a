import type { components } from '@customers-api/sdk';
import {
  createCustomersMock,
  type CustomerCreatedEvent,
  type CustomerDeletedEvent,
  type CustomerEvent,
  type CustomerUpdatedEvent,
} from '@customers-api/msw';
import { describe, expectTypeOf, it } from 'vitest';

const mock = createCustomersMock();

describe('typed change events', () => {
  it("are the spec's event union, as the SDK generates it", () => {
    expectTypeOf<CustomerEvent>().toEqualTypeOf<components['schemas']['CustomerEvent']>();
    mock.onEvent((event) => {
      expectTypeOf(event).toEqualTypeOf<CustomerEvent>();
      if (event.type === 'customer.updated') expectTypeOf(event.data.changed_fields).toEqualTypeOf<components['schemas']['CustomerField'][]>();
    });
  });

  it('narrow nextEvent to the type asked for, in the test too', () => {
    expectTypeOf(mock.nextEvent('customer.updated')).resolves.toEqualTypeOf<CustomerUpdatedEvent>();
    expectTypeOf(mock.nextEvent('customer.created', { timeoutMs: 100 })).resolves.toEqualTypeOf<CustomerCreatedEvent>();
    expectTypeOf(mock.nextEvent('customer.deleted', (event) => {
      expectTypeOf(event).toEqualTypeOf<CustomerDeletedEvent>();
      return event.data.customer.seller_id === 'x';
    })).resolves.toEqualTypeOf<CustomerDeletedEvent>();
    // As the README writes it: nextEvent(type?, matches?, options?), matches left out with undefined.
    expectTypeOf(mock.nextEvent('customer.deleted', undefined, { timeoutMs: 50 })).resolves.toEqualTypeOf<CustomerDeletedEvent>();
    expectTypeOf(mock.nextEvent()).resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(mock.nextEvent((event) => event.data.sequence > 1)).resolves.toEqualTypeOf<CustomerEvent>();
    // @ts-expect-error not an event type of openapi.yaml
    void mock.nextEvent('customer.merged');
    // @ts-expect-error a deleted event's customer has only id and seller_id
    void mock.nextEvent('customer.deleted', (event) => event.data.customer.email === 'a@b.de');
  });
});
