import { randomUUID } from 'node:crypto';
import type { CustomerCreate, CustomersClient, CustomerUpdate } from '@customers-api/sdk';
import { type CliIO, UsageError } from './io.js';
import { parseOverrides } from './overrides.js';

/** The event types `customers trigger` can produce. */
export const TRIGGERS = ['customer.created', 'customer.updated', 'customer.deleted'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** A customer for the trigger's create: unique email per call, so triggers never collide with each other. */
function sampleCustomer(): CustomerCreate {
  return { first_name: 'Ada', last_name: 'Lovelace', email: `ada+${randomUUID().slice(0, 8)}@example.com` };
}

/**
 * Checks the trigger and its overrides before any call (a refused override stores nothing), then makes the real
 * API calls that produce the event: `customer.created` creates a customer with the overrides; `customer.updated`
 * creates one and updates it with them (default: `company_name`); `customer.deleted` creates one with them and
 * deletes it. Prints one line per call. Resolves with the exit code; API errors are thrown to the caller.
 *
 * @example
 * await trigger(client, io, 'customer.created', ['first_name=Grace']);
 */
export async function trigger(client: CustomersClient, io: CliIO, type: string, sets: readonly string[]): Promise<number> {
  if (!(TRIGGERS as readonly string[]).includes(type)) {
    throw new UsageError(`trigger: unknown event ${type || '(none)'}; one of ${TRIGGERS.join(', ')}`);
  }
  const event = type as Trigger;
  const overrides = parseOverrides(sets, event === 'customer.updated' ? 'updateCustomer' : 'createCustomer');
  const body = { ...sampleCustomer(), ...(event === 'customer.updated' ? {} : overrides) } as CustomerCreate;
  const customer = await client.customers.create(body);
  io.out(`POST /api/customers -> ${customer.id}`);
  if (event === 'customer.updated') {
    const patch = (Object.keys(overrides).length > 0 ? overrides : { company_name: 'Analytical Engines Ltd' }) as CustomerUpdate;
    await client.customers.update(customer.id, patch);
    io.out(`PATCH /api/customers/${customer.id}`);
  }
  if (event === 'customer.deleted') {
    await client.customers.delete(customer.id);
    io.out(`DELETE /api/customers/${customer.id}`);
  }
  io.out(`Triggered ${event} for customer ${customer.id}`);
  return 0;
}
