import { sql, type Kysely } from 'kysely';
import type { DialectName } from './connect.js';

// One queue head per endpoint with deliveries (migration 016), so a claim starts from the few endpoints that have
// work due instead of ranking every waiting delivery (issue 36). `due_at`: at or before this time the endpoint
// may have a delivery to claim; null: nothing waits. Claims read heads in `due_at` order (the longest waiting
// first) and move a served head to the back (`due_at` = the claim's time): round robin across endpoints.
// Triggers on webhook_deliveries wake a head (due_at moves earlier, never later) whenever a delivery becomes
// due or gives its slot back, whoever wrote it (outbox triggers, resends, attempts, tests' SQL). Only claims move
// `due_at` later or clear it, and only if no wake came in between: every write bumps `wakes`, and a claim's
// update names the `wakes` it read (webhooks/claim-heads.ts).

/** The time a delivery row wakes its endpoint's head at, or nothing. */
const wakeCondition = {
  // A new delivery that waits.
  insert: 'new.next_attempt_at is not null',
  // Its slot given back (the attempt recorded, or the lease released), or a new due time without a lease.
  update: `(old.lease_until is not null and new.lease_until is null)
    or (new.next_attempt_at is not null and new.lease_until is null
      and (old.next_attempt_at is null or old.next_attempt_at <> new.next_attempt_at))`,
};
// The attempt's own due time when a slot comes back: never later than the claim that took it.
const WAKE_AT = {
  insert: 'new.next_attempt_at',
  update: 'case when old.lease_until is not null and new.lease_until is null then coalesce(old.next_attempt_at, new.next_attempt_at) else new.next_attempt_at end',
};

/** Whether a delivery row waits (counted in its head's `waiting`, migration 024). */
const WAITS = (row: 'new' | 'old') => `${row}.next_attempt_at is not null`;
// What an update adds to its head's `waiting`: +1 when it starts waiting, -1 when it stops.
const WAITING_DELTA = `case when ${WAITS('new')} and not ${WAITS('old')} then 1 when ${WAITS('old')} and not ${WAITS('new')} then -1 else 0 end`;

function sqliteTrigger(event: 'insert' | 'update', counting: boolean, byMode: boolean): string {
  const on = event === 'insert' ? 'insert' : 'update of next_attempt_at, lease_until';
  if (!counting) {
    return `create trigger webhook_deliveries_wake_${event} after ${on} on webhook_deliveries when ${wakeCondition[event]}
  begin
    insert into webhook_delivery_heads (endpoint_id, seller_id, due_at, wakes) values (new.endpoint_id, new.seller_id, ${WAKE_AT[event]}, 1)
      on conflict (endpoint_id) do update
      set due_at = case when due_at is null or excluded.due_at < due_at then excluded.due_at else due_at end, wakes = wakes + 1;
  end`;
  }
  // One head write per row for both the wake and the count (an insert that waits always wakes).
  const wakes = event === 'insert' ? '1' : `case when ${wakeCondition.update} then 1 else 0 end`;
  const dueAt = event === 'insert' ? WAKE_AT.insert : `case when ${wakeCondition.update} then ${WAKE_AT.update} end`;
  const delta = event === 'insert' ? '1' : WAITING_DELTA;
  const when = event === 'insert' ? wakeCondition.insert : `(${wakeCondition.update}) or (${WAITS('new')}) <> (${WAITS('old')})`;
  return `create trigger webhook_deliveries_wake_${event} after ${on} on webhook_deliveries when ${when}
  begin
    insert into webhook_delivery_heads (endpoint_id, seller_id, due_at, wakes, waiting${byMode ? ', mode' : ''})
      values (new.endpoint_id, new.seller_id, ${dueAt}, ${wakes}, ${delta}${byMode ? ', new.mode' : ''})
      on conflict (endpoint_id) do update
      set due_at = case when due_at is null or excluded.due_at < due_at then excluded.due_at else due_at end,
        wakes = wakes + excluded.wakes, waiting = waiting + excluded.waiting;
  end`;
}

// PostgreSQL: once per statement over its transition table, one head write per endpoint (a row trigger would
// write a head once per delivery: a statement that queues 50,000 rows for one endpoint made 50,000 versions of one
// row in one transaction, each found by walking the ones before). Heads are written in endpoint order, so two
// writers that fan out to the same endpoints lock their heads in the same order.
const POSTGRES_FUNCTION = (event: 'insert' | 'update', counting: boolean, byMode: boolean) => {
  // plpgsql has its own `new` and `old`: the transition rows are `n` and `o` here.
  const alias = (text: string) => text.replace(/\bnew\./g, 'n.').replace(/\bold\./g, 'o.');
  const rows = event === 'insert' ? 'new_rows n' : 'new_rows n join old_rows o on o.id = n.id';
  if (!counting) {
    return `
create function webhook_deliveries_wake_${event}() returns trigger language plpgsql as $$
begin
  insert into webhook_delivery_heads as h (endpoint_id, seller_id, due_at, wakes)
    select n.endpoint_id, n.seller_id, min(${alias(WAKE_AT[event])}), 1 from ${rows}
    where ${alias(wakeCondition[event])} group by n.endpoint_id, n.seller_id order by n.endpoint_id
    on conflict (endpoint_id) do update set due_at = least(h.due_at, excluded.due_at), wakes = h.wakes + 1;
  return null;
end $$`;
  }
  const wake = alias(wakeCondition[event]);
  const dueAt = event === 'insert' ? alias(WAKE_AT.insert) : `case when ${wake} then ${alias(WAKE_AT.update)} end`;
  const wakes = event === 'insert' ? '1' : `max(case when ${wake} then 1 else 0 end)`;
  const delta = event === 'insert' ? 'count(*)' : `sum(${alias(WAITING_DELTA)})`;
  const where = event === 'insert' ? wake : `(${wake}) or (${alias(WAITS('new'))}) <> (${alias(WAITS('old'))})`;
  return `
create function webhook_deliveries_wake_${event}() returns trigger language plpgsql as $$
begin
  insert into webhook_delivery_heads as h (endpoint_id, seller_id, due_at, wakes, waiting${byMode ? ', mode' : ''})
    select n.endpoint_id, n.seller_id, min(${dueAt}), ${wakes}, ${delta}${byMode ? ', n.mode' : ''} from ${rows}
    where ${where} group by n.endpoint_id, n.seller_id${byMode ? ', n.mode' : ''} order by n.endpoint_id
    on conflict (endpoint_id) do update
    set due_at = least(h.due_at, excluded.due_at), wakes = h.wakes + excluded.wakes, waiting = h.waiting + excluded.waiting;
  return null;
end $$`;
};

// A waiting delivery deleted (with its endpoint, or by hand) leaves its head's count. Heads are only updated
// here, never made: an endpoint's delete takes its head with it.
const SQLITE_DELETE_TRIGGER = `create trigger webhook_deliveries_wake_delete after delete on webhook_deliveries when ${WAITS('old')}
  begin
    update webhook_delivery_heads set waiting = waiting - 1 where endpoint_id = old.endpoint_id;
  end`;
const POSTGRES_DELETE_FUNCTION = `
create function webhook_deliveries_wake_delete() returns trigger language plpgsql as $$
begin
  update webhook_delivery_heads h set waiting = h.waiting - d.gone
    from (select o.endpoint_id, count(*) as gone from old_rows o where o.next_attempt_at is not null
      group by o.endpoint_id order by o.endpoint_id) d
    where h.endpoint_id = d.endpoint_id;
  return null;
end $$`;

/**
 * Creates the wake triggers (migration 016); with `counting` (migration 024) they also keep each head's
 * `waiting`, the endpoint's deliveries that wait, so a seller's backlog and the queue depth are read from heads;
 * with `byMode` (migration 029, counting only) a head made by a delivery takes the delivery's mode.
 */
export async function createHeadTriggers(db: Kysely<any>, dialect: DialectName, { counting = false, byMode = false } = {}): Promise<void> {
  for (const event of ['insert', 'update'] as const) {
    if (dialect === 'sqlite') {
      await sql.raw(sqliteTrigger(event, counting, byMode)).execute(db);
      continue;
    }
    await sql.raw(POSTGRES_FUNCTION(event, counting, byMode)).execute(db);
    // Transition tables rule out a column list: every update statement runs it, and its join finds what woke.
    const transition = event === 'insert' ? 'new table as new_rows' : 'old table as old_rows new table as new_rows';
    await sql.raw(`create trigger webhook_deliveries_wake_${event} after ${event} on webhook_deliveries
      referencing ${transition} for each statement execute function webhook_deliveries_wake_${event}()`).execute(db);
  }
  if (!counting) return;
  if (dialect === 'sqlite') {
    await sql.raw(SQLITE_DELETE_TRIGGER).execute(db);
    return;
  }
  await sql.raw(POSTGRES_DELETE_FUNCTION).execute(db);
  await sql.raw(`create trigger webhook_deliveries_wake_delete after delete on webhook_deliveries
    referencing old table as old_rows for each statement execute function webhook_deliveries_wake_delete()`).execute(db);
}

/** Drops them again (migration 016's down, and 024's before it makes the counting ones). */
export async function dropHeadTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  for (const event of ['insert', 'update', 'delete'] as const) {
    if (dialect === 'sqlite') {
      await sql.raw(`drop trigger if exists webhook_deliveries_wake_${event}`).execute(db);
      continue;
    }
    await sql.raw(`drop trigger if exists webhook_deliveries_wake_${event} on webhook_deliveries`).execute(db);
    await sql.raw(`drop function if exists webhook_deliveries_wake_${event}()`).execute(db);
  }
}
