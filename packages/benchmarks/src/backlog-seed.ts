import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DatabaseHandle } from '@customers-api/server';

/**
 * `count` waiting deliveries to one endpoint, each of its own change of a customer of the endpoint's seller, due
 * now, as the outbox triggers write them (db/outbox-triggers.ts): the seller's last change (one real create,
 * made through the API, already fanned out to the endpoint) is copied `count - 1` times, each copy with a new event
 * id and a customer id of its own (in its column and in its snapshot; ascending, so indexes grow at their end), in
 * two statements (the server's test
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
  // Ids in ascending order (event ids after a random prefix of this seed, customer ids version 4 in form): each
  // index takes them at its end, not at a million random places (the embedded PostgreSQL's buffer cache is small).
  const prefix = randomBytes(8).toString('hex');
  if (handle.dialect === 'postgres') {
    await sql`with ids as (select i, ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid as customer_id
        from generate_series(1, ${copies}::int) as i)
      insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || ${prefix} || lpad(to_hex(ids.i), 16, '0'), t.type, t.seller_id, ids.customer_id, t.sequence, ${at},
        jsonb_set(t.customer, '{id}', to_jsonb(ids.customer_id::text)), t.previous, t.mode
      from ids, customer_changes t where t.id = ${template.id}`.execute(db);
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${copies})
      insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous, mode)
      select 'evt_' || ${prefix} || printf('%016x', n.i), t.type, t.seller_id, '00000000-0000-4000-8000-' || printf('%012x', n.i), t.sequence, ${at},
        json_set(t.customer, '$.id', '00000000-0000-4000-8000-' || printf('%012x', n.i)),
        t.previous, t.mode
      from n, customer_changes t where t.id = ${template.id}`.execute(db);
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
