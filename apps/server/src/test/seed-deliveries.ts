import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';

/**
 * `count` changes of distinct customers of the seller and their deliveries to one endpoint, in two statements, with
 * the columns the outbox triggers write (db/outbox-triggers.ts): waiting, due at `dueAt`; or, with `failedAt`,
 * given up then. The change bodies are empty objects: nothing is delivered from them.
 *
 * @example
 * await seedDeliveries(handle, sellerId, endpointId, 50_000, { dueAt: new Date().toISOString() });
 */
export async function seedDeliveries(
  handle: DatabaseHandle,
  sellerId: string,
  endpointId: string,
  count: number,
  { dueAt, failedAt }: { dueAt?: string; failedAt?: string },
): Promise<void> {
  const at = dueAt ?? failedAt!;
  if (handle.dialect === 'postgres') {
    await sql`insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || replace(gen_random_uuid()::text, '-', ''), 'customer.updated', ${sellerId}, gen_random_uuid(), 2,
        ${at}, '{}'::jsonb, '{}'::jsonb, (select e.mode from webhook_endpoints e where e.id = ${endpointId})
      from generate_series(1, ${count})`.execute(handle.db);
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || lower(hex(randomblob(16))), 'customer.updated', ${sellerId}, lower(hex(randomblob(16))), 2,
        ${at}, '{}', '{}', (select e.mode from webhook_endpoints e where e.id = ${endpointId})
      from n`.execute(handle.db);
  }
  // Only the changes just made: none of them has a delivery yet.
  await sql`insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, next_attempt_at,
      given_up_at, created_at, mode)
    select c.id, ${endpointId}, c.seller_id, c.customer_id, c.sequence, ${failedAt ? 5 : 0}, ${dueAt ?? null}, ${failedAt ?? null}, ${at},
      (select e.mode from webhook_endpoints e where e.id = ${endpointId})
    from customer_changes c
    where c.seller_id = ${sellerId} and not exists (select 1 from webhook_deliveries d where d.change_id = c.id)`.execute(handle.db);
}
