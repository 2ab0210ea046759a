import { sql, type Kysely } from 'kysely';
import type { DialectName } from './connect.js';
import { CUSTOMER_COLUMNS } from './rows.js';
import { SKIPPED_FOR_CAP, WAITING_DELIVERY_LIMIT } from '../webhooks/delivery-caps.js';

// The outbox is written by triggers on customers, so every statement or server-side function that changes a
// customer records its change in the same transaction, whoever wrote it. A change is recorded only when the
// seller has an endpoint subscribed to its type at that moment (nobody could ever receive it otherwise; a
// create, update or delete of a seller without endpoints costs one index probe). Each recorded change:
// - carries the customer's change number, `customers.event_sequence`: 1 on insert (the column's default), one
//   more with every update (the writer sets `event_sequence = event_sequence + 1`, and a guard refuses an update
//   that does not), the last one plus one for the delete. So the number counts every change, recorded or not,
//   and concurrent updates of one customer, serialized by the row's lock or SQLite's single writer, get
//   consecutive numbers;
// - stores the row as it is after the change (before it, for a delete) as JSON, the previous row for an update;
//   the server turns both into core's CustomerChange with the same mapping as its reads (webhooks/changes.ts);
// - gets an event id, `evt_` and 32 lowercase hex digits made by the database;
// - is fanned out at once to the seller's endpoints subscribed to its type (one webhook_deliveries row each,
//   due now), so the delivery worker only ever claims ready rows and a change is never fanned out twice.

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const EVENT_TYPES = { insert: 'customer.created', update: 'customer.updated', delete: 'customer.deleted' } as const;

/**
 * SQLite: the row as a JSON object of its column values, exactly as a select returns them (JSON columns as text).
 * Before migration 020 the rows have no mode.
 */
function sqliteSnapshot(row: 'new' | 'old', options: OutboxTriggerOptions): string {
  const columns = options.byMode ? CUSTOMER_COLUMNS : CUSTOMER_COLUMNS.filter((column) => column !== 'mode');
  return `json_object(${columns.map((column) => `'${column}', ${row}.${column}`).join(', ')})`;
}

/**
 * Which endpoints a change goes to, by schema version: from migration 009 on, a disabled endpoint (failing for
 * days, see webhooks/endpoint-health.ts) gets nothing until it is enabled again.
 */
export interface OutboxTriggerOptions {
  skipDisabled: boolean;
  /**
   * From migration 021 on (test mode): a change goes only to the endpoints of the customer's own mode, and the
   * change row records that mode.
   */
  byMode?: boolean;
  /**
   * From migration 023 on, a change is recorded when a disabled endpoint is subscribed too (it gets no delivery),
   * so that the dashboard lists it as `skipped` there and can resend it once the endpoint is enabled.
   */
  recordForDisabled?: boolean;
  /**
   * From migration 024 on: when the seller's waiting deliveries (summed over its queue heads, a row per endpoint)
   * have reached its cap, the change is still recorded but its deliveries are written skipped: not waiting, never
   * attempted, given up now with the reason, resendable like a failed one (webhooks/delivery-caps.ts).
   */
  waitingCap?: boolean;
  /**
   * From migration 029 on (issue 38): each delivery records its change's mode, and the waiting cap counts a seller's
   * waiting deliveries of that mode only (a test backlog never makes live deliveries skipped, nor the reverse).
   */
  modeOnDeliveries?: boolean;
  /**
   * From migration 034 on: a seller without a cap of its own gets the default from `server_settings` (written from
   * WAITING_DELIVERY_LIMIT at every migrate, db/server-settings.ts), not a literal in the trigger; so the constant
   * is the one place, and changing it needs no migration.
   */
  capFromSettings?: boolean;
}

/**
 * The options of the current schema: what the newest migration that recreates the triggers installs. A migration
 * names its own options in full, never this, so an older migration keeps installing what its schema can hold.
 */
export const CURRENT_OUTBOX_TRIGGERS: OutboxTriggerOptions = {
  skipDisabled: true,
  byMode: true,
  recordForDisabled: true,
  waitingCap: true,
  modeOnDeliveries: true,
  capFromSettings: true,
};

/** The condition that records a change: some endpoint subscribed, a disabled one too when so configured. */
function recordingOptions(options: OutboxTriggerOptions): OutboxTriggerOptions {
  return { ...options, skipDisabled: options.skipDisabled && !options.recordForDisabled };
}

/**
 * SQL true when the seller of `sellerId` (an expression) is at its cap of waiting deliveries; with `mode` (an
 * expression, migration 029) its waiting deliveries of that mode only.
 */
function atWaitingCap(sellerId: string, mode: string | undefined, fromSettings: boolean | undefined): string {
  // Before migration 034 the default was written in as it was then (an old schema keeps what it was made with).
  const fallback = fromSettings ? '(select v.waiting_delivery_limit from server_settings v where v.id = 1)' : String(WAITING_DELIVERY_LIMIT);
  return `(select coalesce(sum(h.waiting), 0) from webhook_delivery_heads h where h.seller_id = ${sellerId}${mode ? ` and h.mode = ${mode}` : ''})
    >= coalesce((select s.waiting_delivery_limit from sellers s where s.id = ${sellerId}), ${fallback})`;
}

/**
 * The delivery columns the fan-out writes after `attempts`, and their values: due `now`, or skipped at the cap
 * (`full`: a boolean SQL expression, evaluated once per row of the fan-out); the mode from migration 029 on.
 */
function fanOutState(options: OutboxTriggerOptions, now: string, full: string, mode: string): { columns: string; values: string } {
  const withMode = (state: { columns: string; values: string }) =>
    options.modeOnDeliveries ? { columns: `${state.columns}, mode`, values: `${state.values}, ${mode}` } : state;
  if (!options.waitingCap) return withMode({ columns: 'next_attempt_at', values: now });
  return withMode({
    columns: 'next_attempt_at, given_up_at, last_error',
    values: `case when ${full} then null else ${now} end, case when ${full} then ${now} end, case when ${full} then '${SKIPPED_FOR_CAP}' end`,
  });
}

/** The extra condition on `webhook_endpoints e` for {@link OutboxTriggerOptions}. */
function enabledOnly({ skipDisabled, byMode }: OutboxTriggerOptions, row: string): string {
  return (skipDisabled ? ' and e.disabled_at is null' : '') + (byMode ? ` and e.mode = ${row}.mode` : '');
}

/** SQLite: the seller's endpoints subscribed to `type` (the trigger's WHEN and its fan-out share it). */
function sqliteSubscribed(row: 'new' | 'old', type: string, options: OutboxTriggerOptions): string {
  return `from webhook_endpoints e where e.seller_id = ${row}.seller_id${enabledOnly(options, row)}
    and exists (select 1 from json_each(e.event_types) where json_each.value = '${type}')`;
}

function sqliteTrigger(event: 'insert' | 'update' | 'delete', options: OutboxTriggerOptions): string {
  const row = event === 'delete' ? 'old' : 'new';
  const type = EVENT_TYPES[event];
  // A delete happens "now", but never before the customer's last change (a clock stepping back).
  const occurredAt = event === 'delete' ? `max(${SQLITE_NOW}, old.updated_at)` : 'new.updated_at';
  const sequence = event === 'delete' ? 'old.event_sequence + 1' : 'new.event_sequence';
  const mode = options.modeOnDeliveries ? `${row}.mode` : undefined;
  // The cap is read once per fan-out (a one-row subquery joined in), not once per column and row.
  const state = fanOutState(options, SQLITE_NOW, 'cap.full', `${row}.mode`);
  // `limit 1` keeps SQLite from flattening it into the select (a join's subquery with a limit is never flattened).
  const cap = options.waitingCap ? `, (select ${atWaitingCap(`${row}.seller_id`, mode, options.capFromSettings)} as full limit 1) cap` : '';
  return `create trigger customers_outbox_${event} after ${event} on customers
    when exists (select 1 ${sqliteSubscribed(row, type, recordingOptions(options))})
  begin
    insert into customer_changes (event_id, type, seller_id, ${options.byMode ? 'mode, ' : ''}customer_id, sequence, occurred_at, customer, previous)
      values ('evt_' || lower(hex(randomblob(16))), '${type}', ${row}.seller_id, ${options.byMode ? `${row}.mode, ` : ''}${row}.id, ${sequence}, ${occurredAt},
        ${sqliteSnapshot(row, options)}, ${event === 'update' ? sqliteSnapshot('old', options) : 'null'});
    insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, ${state.columns}, created_at)
      select last_insert_rowid(), e.id, ${row}.seller_id, ${row}.id, ${sequence}, 0, ${state.values}, ${SQLITE_NOW}
      ${sqliteSubscribed(row, type, options).replace(/^from webhook_endpoints e/, `from webhook_endpoints e${cap}`)};
  end`;
}

const SEQUENCE_GUARD_MESSAGE = 'an update of customers must set event_sequence = event_sequence + 1';

/** SQLite: the writers' half of the change number, enforced. */
const SQLITE_SEQUENCE_GUARD = `create trigger customers_event_sequence_guard before update on customers
  when new.event_sequence is not old.event_sequence + 1
  begin select raise(abort, '${SEQUENCE_GUARD_MESSAGE}'); end`;

const postgresFunction = (options: OutboxTriggerOptions) => {
  const state = fanOutState(options, 'clock_timestamp()', 'v_full', 'v_row.mode');
  return `
create function customers_record_change() returns trigger language plpgsql as $$
declare
  v_row customers;
  v_type text;
  v_occurred timestamptz;
  v_sequence integer;
  v_change bigint;
  v_full boolean := false;
begin
  if tg_op = 'INSERT' then
    v_row := new; v_type := 'customer.created'; v_occurred := new.updated_at; v_sequence := new.event_sequence;
  elsif tg_op = 'UPDATE' then
    if new.event_sequence is distinct from old.event_sequence + 1 then
      raise exception '${SEQUENCE_GUARD_MESSAGE}';
    end if;
    v_row := new; v_type := 'customer.updated'; v_occurred := new.updated_at; v_sequence := new.event_sequence;
  else
    -- A delete happens now, but never before the customer's last change (a clock stepping back).
    v_row := old; v_type := 'customer.deleted'; v_occurred := greatest(clock_timestamp(), old.updated_at);
    v_sequence := old.event_sequence + 1;
  end if;
  if not exists (select 1 from webhook_endpoints e where e.seller_id = v_row.seller_id and e.event_types ? v_type${enabledOnly(recordingOptions(options), 'v_row')}) then
    return null;
  end if;
  insert into customer_changes (event_id, type, seller_id, ${options.byMode ? 'mode, ' : ''}customer_id, sequence, occurred_at, customer, previous)
    values ('evt_' || replace(gen_random_uuid()::text, '-', ''), v_type, v_row.seller_id, ${options.byMode ? 'v_row.mode, ' : ''}v_row.id, v_sequence,
      v_occurred, to_jsonb(v_row) - 'event_sequence',
      case when tg_op = 'UPDATE' then to_jsonb(old) - 'event_sequence' end)
    returning id into v_change;
  ${options.waitingCap ? `v_full := ${atWaitingCap('v_row.seller_id', options.modeOnDeliveries ? 'v_row.mode' : undefined, options.capFromSettings)};` : ''}
  insert into webhook_deliveries (change_id, endpoint_id, seller_id, customer_id, sequence, attempts, ${state.columns}, created_at)
    select v_change, e.id, v_row.seller_id, v_row.id, v_sequence, 0, ${state.values}, clock_timestamp()
    from webhook_endpoints e where e.seller_id = v_row.seller_id and e.event_types ? v_type${enabledOnly(options, 'v_row')};
  return null;
end $$`;
};

/**
 * Creates the outbox triggers on customers (migrations 008 and 009), and SQLite's guard of the change number.
 * The current schema skips disabled endpoints; migration 008 runs before that column exists.
 */
export async function createOutboxTriggers(
  db: Kysely<any>,
  dialect: DialectName,
  options: OutboxTriggerOptions = CURRENT_OUTBOX_TRIGGERS,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql.raw(postgresFunction(options)).execute(db);
    await sql`create trigger customers_record_change after insert or update or delete on customers
      for each row execute function customers_record_change()`.execute(db);
    return;
  }
  for (const event of ['insert', 'update', 'delete'] as const) await sql.raw(sqliteTrigger(event, options)).execute(db);
  await sql.raw(SQLITE_SEQUENCE_GUARD).execute(db);
}

/** Drops them again (a migration's down; bulk loads that must not record changes). */
export async function dropOutboxTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`drop trigger if exists customers_record_change on customers`.execute(db);
    await sql`drop function if exists customers_record_change()`.execute(db);
    return;
  }
  for (const name of ['customers_outbox_insert', 'customers_outbox_update', 'customers_outbox_delete', 'customers_event_sequence_guard']) {
    await sql.raw(`drop trigger if exists ${name}`).execute(db);
  }
}
