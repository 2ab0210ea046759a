import { sql } from 'kysely';
import type { DatabaseHandle } from '@customers-api/server';

/**
 * `count` waiting deliveries to one endpoint, each of its own change of a customer of the endpoint's seller, due
 * now, as the outbox triggers write them (db/outbox-triggers.ts): the seller's `template` change (one real update,
 * made through the API, already fanned out to the endpoint) is copied `count - 1` times, each copy with a new event
 * id and a customer id of its own (in its column and in its snapshot), in two statements (the server's test
 * seeding, apps/server/src/test/seed-deliveries.ts, does the same with empty bodies). The queue-head triggers keep
 * the endpoint's head and waiting count as they do for the server's writes. The seller's waiting cap is raised
 * first to fit them (a million is above the default of 100,000).
 *
 * @example
 * await seedBacklog(handle, endpointId, 1_000_000);
 */
export async function seedBacklog(handle: DatabaseHandle, endpointId: string, count: number): Promise<void> {
  const { db } = handle;
  const endpoint = await db.selectFrom('webhook_endpoints').select(['seller_id', 'mode']).where('id', '=', endpointId).executeTakeFirstOrThrow();
  const seller = endpoint.seller_id;
  const template = await db.selectFrom('customer_changes').select('id').where('seller_id', '=', seller).orderBy('id', 'desc').executeTakeFirstOrThrow();
  await db.updateTable('sellers').set({ waiting_delivery_limit: count + 10_000 }).where('id', '=', seller).execute();
  const at = new Date().toISOString();
  const copies = count - 1;
  if (handle.dialect === 'postgres') {
    await sql`with ids as (select gen_random_uuid() as customer_id from generate_series(1, ${copies}::int))
      insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || replace(gen_random_uuid()::text, '-', ''), t.type, t.seller_id, ids.customer_id, t.sequence, ${at},
        jsonb_set(t.customer, '{id}', to_jsonb(ids.customer_id::text)), jsonb_set(t.previous, '{id}', to_jsonb(ids.customer_id::text)), t.mode
      from ids, customer_changes t where t.id = ${template.id}`.execute(db);
  } else {
    // Materialized: each id made once and used twice (a flattened subquery would call randomblob per use).
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${copies}),
      ids(customer_id) as materialized (select lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
        || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))) from n)
      insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || lower(hex(randomblob(16))), t.type, t.seller_id, ids.customer_id, t.sequence, ${at},
        json_set(t.customer, '$.id', ids.customer_id), json_set(t.previous, '$.id', ids.customer_id), t.mode
      from ids, customer_changes t where t.id = ${template.id}`.execute(db);
  }
  // Only the copies just made (after the template): none of them has a delivery yet.
  await sql`insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, next_attempt_at, created_at, mode)
    select c.id, ${endpointId}, c.seller_id, c.customer_id, c.sequence, 0, ${at}, ${at}, ${endpoint.mode}
    from customer_changes c
    where c.seller_id = ${seller} and c.id > ${template.id}`.execute(db);
  // Planner statistics for the new rows now, not whenever autovacuum gets to them during the measurement.
  if (handle.dialect === 'postgres') await sql`analyze customer_changes, webhook_deliveries, webhook_delivery_heads`.execute(db);
}

/** The endpoint's waiting deliveries as its queue head counts them (what the waiting cap reads). */
export async function waitingOf(handle: DatabaseHandle, endpointId: string): Promise<number> {
  const head = await handle.db.selectFrom('webhook_delivery_heads').select('waiting').where('endpoint_id', '=', endpointId).executeTakeFirst();
  return Number(head?.waiting ?? 0);
}
