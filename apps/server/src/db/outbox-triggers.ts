import { sql, type Kysely } from 'kysely';
import type { DialectName } from './connect.js';
import { CUSTOMER_COLUMNS } from './rows.js';

// The outbox is written by triggers on customers, so every statement or server-side function that changes a
// customer records its change in the same transaction, whoever wrote it. Each change:
// - takes the customer's next sequence number (customer_event_sequences: kept after the delete; one row per
//   customer, so concurrent updates of one customer, already serialized by the customer row's lock or SQLite's
//   single writer, get consecutive numbers);
// - stores the row as it is after the change (before it, for a delete) as JSON, the previous row for an update;
//   the server turns both into core's CustomerChange with the same mapping as its reads (webhooks/changes.ts);
// - gets an event id, `evt_` and 32 lowercase hex digits made by the database;
// - is fanned out at once to the seller's endpoints subscribed to its type (one webhook_deliveries row each,
//   due now), so the delivery worker only ever claims ready rows and a change is never fanned out twice.


const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** SQLite: the row as a JSON object of its column values, exactly as a select returns them (JSON columns as text). */
function sqliteSnapshot(row: 'new' | 'old'): string {
  return `json_object(${CUSTOMER_COLUMNS.map((column) => `'${column}', ${row}.${column}`).join(', ')})`;
}

function sqliteTrigger(event: 'insert' | 'update' | 'delete'): string {
  const row = event === 'delete' ? 'old' : 'new';
  const type = { insert: 'customer.created', update: 'customer.updated', delete: 'customer.deleted' }[event];
  // A delete happens "now", but never before the customer's last change (a clock stepping back).
  const occurredAt = event === 'delete' ? `max(${SQLITE_NOW}, old.updated_at)` : 'new.updated_at';
  const sequence = `(select sequence from customer_event_sequences where customer_id = ${row}.id)`;
  return `create trigger customers_outbox_${event} after ${event} on customers begin
    insert into customer_event_sequences (customer_id, sequence) values (${row}.id, 1)
      on conflict (customer_id) do update set sequence = sequence + 1;
    insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous)
      values ('evt_' || lower(hex(randomblob(16))), '${type}', ${row}.seller_id, ${row}.id, ${sequence}, ${occurredAt},
        ${sqliteSnapshot(row)}, ${event === 'update' ? sqliteSnapshot('old') : 'null'});
    insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, next_attempt_at, created_at)
      select c.id, e.id, c.seller_id, c.customer_id, c.sequence, 0, ${SQLITE_NOW}, ${SQLITE_NOW}
      from customer_changes c join webhook_endpoints e on e.seller_id = c.seller_id
      where c.customer_id = ${row}.id and c.sequence = ${sequence}
        and exists (select 1 from json_each(e.event_types) where json_each.value = '${type}');
  end`;
}

const POSTGRES_FUNCTION = `
create function customers_record_change() returns trigger language plpgsql as $$
declare
  v_row customers;
  v_type text;
  v_occurred timestamptz;
  v_sequence integer;
  v_change bigint;
begin
  if tg_op = 'INSERT' then
    v_row := new; v_type := 'customer.created'; v_occurred := new.updated_at;
  elsif tg_op = 'UPDATE' then
    v_row := new; v_type := 'customer.updated'; v_occurred := new.updated_at;
  else
    -- A delete happens now, but never before the customer's last change (a clock stepping back).
    v_row := old; v_type := 'customer.deleted'; v_occurred := greatest(clock_timestamp(), old.updated_at);
  end if;
  insert into customer_event_sequences as s (customer_id, sequence) values (v_row.id, 1)
    on conflict (customer_id) do update set sequence = s.sequence + 1
    returning s.sequence into v_sequence;
  insert into customer_changes (event_id, type, seller_id, customer_id, sequence, occurred_at, customer, previous)
    values ('evt_' || replace(gen_random_uuid()::text, '-', ''), v_type, v_row.seller_id, v_row.id, v_sequence,
      v_occurred, to_jsonb(v_row), case when tg_op = 'UPDATE' then to_jsonb(old) end)
    returning id into v_change;
  insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, next_attempt_at, created_at)
    select v_change, e.id, v_row.seller_id, v_row.id, v_sequence, 0, clock_timestamp(), clock_timestamp()
    from webhook_endpoints e where e.seller_id = v_row.seller_id and e.event_types ? v_type;
  return null;
end $$`;

/** Creates the outbox triggers on customers (migration 007). */
export async function createOutboxTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(POSTGRES_FUNCTION).execute(db);
    await sql`create trigger customers_record_change after insert or update or delete on customers
      for each row execute function customers_record_change()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete'] as const) await sql.raw(sqliteTrigger(event)).execute(db);
}

/** Drops them again (migration 007's down; bulk loads that must not record changes). */
export async function dropOutboxTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop trigger if exists customers_record_change on customers`.execute(db);
    await sql`drop function if exists customers_record_change()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists customers_outbox_${event}`).execute(db);
  }
}
