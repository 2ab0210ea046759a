import { sql, type Kysely } from 'kysely';
import type { DialectName } from './connect.js';

// The plan-limit count of each seller and mode (migration 021), kept by triggers in the transaction of every insert
// and delete of a customer, so a create's limit check reads one row instead of counting. Test customers count
// against the same limit as live ones, but in their own row: neither mode fills the other's plan.

const INCREMENT = `insert into customer_counts (seller_id, mode, count) values (new.seller_id, new.mode, 1)
  on conflict (seller_id, mode) do update set count = customer_counts.count + 1`;
const DECREMENT = `update customer_counts set count = count - 1 where seller_id = old.seller_id and mode = old.mode`;

/** Creates the count triggers on customers. */
export async function createCountTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(`create function customers_count_insert() returns trigger language plpgsql as $$
      begin ${INCREMENT}; return null; end $$`).execute(db);
    await sql.raw(`create function customers_count_delete() returns trigger language plpgsql as $$
      begin ${DECREMENT}; return null; end $$`).execute(db);
    await sql`create trigger customers_count_insert after insert on customers
      for each row execute function customers_count_insert()`.execute(db);
    await sql`create trigger customers_count_delete after delete on customers
      for each row execute function customers_count_delete()`.execute(db);
    return;
  }
  await sql.raw(`create trigger customers_count_insert after insert on customers begin ${INCREMENT}; end`).execute(db);
  await sql.raw(`create trigger customers_count_delete after delete on customers begin ${DECREMENT}; end`).execute(db);
}

/** Drops the count triggers (either version's: the names are the same). */
export async function dropCountTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const postgres = dialect === 'postgres';
  await sql.raw(`drop trigger if exists customers_count_insert${postgres ? ' on customers' : ''}`).execute(db);
  await sql.raw(`drop trigger if exists customers_count_delete${postgres ? ' on customers' : ''}`).execute(db);
  if (postgres) {
    await sql`drop function if exists customers_count_insert()`.execute(db);
    await sql`drop function if exists customers_count_delete()`.execute(db);
  }
}
