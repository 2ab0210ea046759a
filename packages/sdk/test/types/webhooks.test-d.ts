// Type tests of the change events and the webhook verifier, run by vitest's typecheck (tsc).
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  components,
  Customer,
  CustomerCreatedEvent,
  CustomerDeletedEvent,
  CustomerEvent,
  CustomerEventType,
  CustomerField,
  CustomersClient,
  CustomerUpdatedEvent,
  DeletedCustomer,
  WebhookVerificationError,
  WebhookVerificationReason,
} from '../../src/index';
import { verifyWebhook } from '../../src/index';
import * as standalone from '../../src/webhooks/index';

type Schemas = components['schemas'];
declare const event: CustomerEvent;
declare const client: CustomersClient;
declare const incoming: IncomingHttpHeaders;

describe('event types', () => {
  it('are the generated schemas, under their own names', () => {
    expectTypeOf<CustomerEvent>().toEqualTypeOf<Schemas['CustomerEvent']>();
    expectTypeOf<CustomerCreatedEvent>().toEqualTypeOf<Schemas['CustomerCreatedEvent']>();
    expectTypeOf<CustomerUpdatedEvent>().toEqualTypeOf<Schemas['CustomerUpdatedEvent']>();
    expectTypeOf<CustomerDeletedEvent>().toEqualTypeOf<Schemas['CustomerDeletedEvent']>();
    expectTypeOf<DeletedCustomer>().toEqualTypeOf<Schemas['DeletedCustomer']>();
    expectTypeOf<CustomerField>().toEqualTypeOf<Schemas['CustomerField']>();
    expectTypeOf<CustomerEventType>().toEqualTypeOf<'customer.created' | 'customer.updated' | 'customer.deleted'>();
  });

  it('narrow on type: changed_fields only on customer.updated, a full customer except on customer.deleted', () => {
    if (event.type === 'customer.updated') {
      expectTypeOf(event).toEqualTypeOf<CustomerUpdatedEvent>();
      expectTypeOf(event.data.changed_fields).toEqualTypeOf<CustomerField[]>();
      expectTypeOf(event.data.customer).toEqualTypeOf<Customer>();
    } else {
      // @ts-expect-error only customer.updated names the changed fields
      void event.data.changed_fields;
    }
    if (event.type === 'customer.deleted') {
      expectTypeOf(event.data.customer).toEqualTypeOf<DeletedCustomer>();
      // @ts-expect-error a deleted customer is only its id and seller
      void event.data.customer.email;
    }
    if (event.type === 'customer.created') expectTypeOf(event.data.customer.status).toEqualTypeOf<Customer['status']>();
    expectTypeOf(event.data.sequence).toEqualTypeOf<number>();
    expectTypeOf(event.id).toEqualTypeOf<string>();
  });

  it('a switch over every type is exhaustive', () => {
    const name = (e: CustomerEvent): string => {
      switch (e.type) {
        case 'customer.created':
          return e.data.customer.email;
        case 'customer.updated':
          return e.data.changed_fields.join();
        case 'customer.deleted':
          return e.data.customer.id;
        default:
          return e satisfies never;
      }
    };
    expectTypeOf(name).returns.toEqualTypeOf<string>();
  });

  it('changed_fields holds only customer properties', () => {
    expectTypeOf<'status'>().toMatchTypeOf<CustomerField>();
    expectTypeOf<'id'>().not.toMatchTypeOf<CustomerField>();
    expectTypeOf<CustomerField>().toMatchTypeOf<keyof Customer>();
  });
});

describe('verifyWebhook and client.webhooks.verify', () => {
  it('return the event union', () => {
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(standalone.verifyWebhook).returns.resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(client.webhooks.verify).returns.resolves.toEqualTypeOf<CustomerEvent>();
    expectTypeOf(standalone.verifyWebhook).toEqualTypeOf(verifyWebhook);
  });

  it("take the body as bytes or text, and headers as Headers, a plain object or Node's IncomingHttpHeaders", () => {
    void verifyWebhook(Buffer.from(''), incoming, 'whsec_x');
    void verifyWebhook(new ArrayBuffer(0), new Headers(), ['whsec_a', 'whsec_b']);
    void verifyWebhook('{}', { 'webhook-id': 'evt_1', 'webhook-signature': ['v1,a', 'v1,b'] }, 'whsec_x', { toleranceSeconds: 60, now: new Date() });
    void client.webhooks.verify('{}', incoming);
    // @ts-expect-error a parsed body cannot be verified: the bytes it was signed over are gone
    void verifyWebhook({ type: 'customer.created' }, incoming, 'whsec_x');
    // @ts-expect-error the standalone function needs the secret
    void verifyWebhook('{}', incoming);
  });

  it('reject with a WebhookVerificationError that says why', () => {
    expectTypeOf<WebhookVerificationError['reason']>().toEqualTypeOf<WebhookVerificationReason>();
    expectTypeOf<WebhookVerificationError['status']>().toEqualTypeOf<undefined>();
    expectTypeOf<WebhookVerificationError['name']>().toEqualTypeOf<'WebhookVerificationError'>();
    expectTypeOf<standalone.WebhookVerificationError>().toEqualTypeOf<WebhookVerificationError>();
  });
});
