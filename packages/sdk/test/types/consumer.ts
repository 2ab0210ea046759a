// Type-level checks, compiled by `typecheck`: every @ts-expect-error must be an error, or tsc fails.
import {
  type Customer,
  type CustomerCreate,
  CustomersClient,
  NotFoundError,
  type components,
  type operations,
  type paths,
} from '../../src/index';

const client = new CustomersClient({ apiKey: 'sk_live_x' });

export async function consumer(): Promise<void> {
  const body: CustomerCreate = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };
  const created: Customer = await client.customers.create(body, { idempotencyKey: 'k', timeout: 1000 });
  // @ts-expect-error email must be a string
  await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 42 });
  // @ts-expect-error last_name is required
  await client.customers.create({ first_name: 'Ada', email: 'ada@example.com' });
  // @ts-expect-error not an allowed status
  await client.customers.update(created.id, { status: 'deleted' });
  // @ts-expect-error delete resolves with nothing
  const nothing: string = await client.customers.delete(created.id);

  const result = await client.customers.get(created.id).result();
  if (result.error) {
    const status: number | undefined = result.error.status;
    void status;
  } else {
    const email: string = result.data.email;
    void email;
  }
  const err: unknown = null;
  if (err instanceof NotFoundError) {
    const rid: string | undefined = err.requestId; // narrowed by Symbol.hasInstance's type predicate
    void rid;
  }
  type Generated = [paths['/api/customers']['post'], operations['getCustomer'], components['schemas']['Address']];
  const g: Generated | undefined = undefined;
  void g;
  void nothing;
}
