import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DatabaseHandle, DialectName } from '../db/connect.js';
import { PREPARE_ONCE } from '../db/postgres-pool.js';
import type { Database } from '../db/schema.js';
import { selectClaims, type Candidate } from './claim-selection.js';
import { giveUpWaiting } from './delivery-caps.js';
import { ENDPOINT_DELIVERY_SLOTS, endpointSlots, SELLER_DELIVERY_SLOTS } from './delivery-fairness.js';

// What one claim reads, all of it bounded by what the claim may take, never by what waits (issue 36):
// - at most HEADS_PER_CLAIM endpoint queue heads (db/delivery-heads.ts), longest due first, through their index;
// - on PostgreSQL, a transaction advisory lock per seller and mode of those heads, tried and skipped when another
//   claim holds it (no lock that every claim waits on): a seller's slots of a mode are counted by one claim at a time;
// - the attempts in flight of those sellers (their leased rows: at most their slots, plus lapsed leases);
// - each endpoint's first ROWS_PER_ENDPOINT due, unleased deliveries through (endpoint_id, next_attempt_at, id),
//   each with its customer's earliest delivery still waiting for a first attempt (one index entry);
// - the earliest such delivery itself for rows that must wait for it (per-customer order), when it is free.

/** Endpoint heads a claim visits at most: enough for every slot the claim may fill twice over. */
export const headsPerClaim = (limit: number) => Math.min(64, Math.max(8, 2 * Math.floor(limit)));
/** Deliveries read per endpoint at most: twice its slots (some may wait for a customer's earlier change). */
const rowsPerEndpoint = (slots: number) => 2 * slots;

/** Spreads claims of one seller (PostgreSQL advisory lock space; the second key is the seller's hash). */
const CLAIM_LOCK = 230_023_009;

export interface PlanOptions {
  now: string;
  limit: number;
  keyId: string;
  sellerSlots?: number | undefined;
  endpointSlots?: number | undefined;
}

/** A visited head's next due time, written only if no wake came since it was read. */
export interface HeadUpdate {
  endpointId: string;
  wakes: number;
  dueAt: string | null;
}

interface HeadRow {
  endpoint_id: string;
  seller_id: string;
  mode: string;
  wakes: number | string;
  timeouts_in_a_row: number | string;
  disabled_at: unknown;
  next_future: unknown;
}

const ms = (value: unknown) => new Date(value as string).getTime();
/**
 * A seller's slots of one mode (migration 029): test and live deliveries each have the seller's slots, so a test
 * backlog holding every test slot never delays a live delivery (issue 38). Claim selection treats it as a seller.
 */
const lane = (sellerId: string, mode: string) => `${sellerId} ${mode}`;
const iso = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/**
 * The deliveries to claim now and the visited heads' next due times. Run inside the claim's write transaction.
 *
 * @example
 * const { ids, heads } = await planClaim(trx, 'sqlite', { now, limit: 16, keyId });
 */
export async function planClaim(trx: Kysely<Database>, dialect: DialectName, options: PlanOptions): Promise<{ ids: number[]; heads: HeadUpdate[] }> {
  const { now } = options;
  const sellerSlots = options.sellerSlots ?? SELLER_DELIVERY_SLOTS;
  const due = sql`select h.endpoint_id, h.seller_id, h.mode, h.wakes, h.due_at, e.timeouts_in_a_row, e.disabled_at,
        (select min(f.next_attempt_at) from webhook_deliveries f
          where f.endpoint_id = h.endpoint_id and f.next_attempt_at is not null and f.next_attempt_at > ${now}) as next_future
      from webhook_delivery_heads h join webhook_endpoints e on e.id = h.endpoint_id
      where h.due_at is not null and h.due_at <= ${now} and e.secret_key_id = ${options.keyId}
      order by h.due_at, h.endpoint_id
      limit ${headsPerClaim(options.limit)}`;
  // PostgreSQL: the heads and their sellers' locks in one statement (one round trip, issue 36): each seller and mode
  // of the heads read is tried once (the CTE is read once), and only the heads of lanes this claim locked come back.
  const heads =
    dialect === 'postgres'
      ? (
          await sql<HeadRow>`${sql.raw(PREPARE_ONCE)}with due as (${due}),
            locked as (select l.lane from (select distinct d.seller_id || ' ' || d.mode as lane from due d) l
              where pg_try_advisory_xact_lock(${sql.lit(CLAIM_LOCK)}, hashtext(l.lane)))
          select * from due where seller_id || ' ' || mode in (select lane from locked) order by due_at, endpoint_id`.execute(trx)
        ).rows
      : (await sql<HeadRow>`${due}`.execute(trx)).rows;
  if (heads.length === 0) return { ids: [], heads: [] };

  const sellerIds = [...new Set(heads.map((h) => h.seller_id))];
  const lanes = [...new Set(heads.map((h) => lane(h.seller_id, h.mode)))];
  const enabled = heads.filter((h) => h.disabled_at === null);
  const slotsOf = new Map(enabled.map((h) => [h.endpoint_id, endpointSlots(Number(h.timeouts_in_a_row), options.endpointSlots ?? ENDPOINT_DELIVERY_SLOTS)]));
  // Both read after the sellers' locks are held (a statement of their own: its snapshot sees every claim before).
  const { busy, due: dueRows } = await busyAndDue(trx, dialect, sellerIds, enabled, slotsOf, now);
  const endpointBusy = new Map(busy.map((row) => [row.endpoint_id, { n: Number(row.n), firstEnd: iso(row.first_end) }]));
  // Busy slots per seller *and mode*: a seller's test attempts never take its live slots.
  const laneBusy = new Map<string, number>();
  for (const row of busy) laneBusy.set(lane(row.seller_id, row.mode), (laneBusy.get(lane(row.seller_id, row.mode)) ?? 0) + Number(row.n));
  const candidates = await dueCandidates(trx, dialect, enabled, dueRows, now);

  const endpointFree = new Map([...slotsOf].map(([id, slots]) => [id, slots - (endpointBusy.get(id)?.n ?? 0)]));
  const sellerFree = new Map(lanes.map((id) => [id, sellerSlots - (laneBusy.get(id) ?? 0)]));
  const ids = selectClaims({ candidates, endpointFree, sellerFree, limit: options.limit });

  const chosen = new Set(ids);
  const updates: HeadUpdate[] = [];
  for (const head of heads) {
    const wakes = Number(head.wakes);
    const own = candidates.filter((c) => c.endpointId === head.endpoint_id);
    const served = own.some((c) => chosen.has(c.id));
    const sellerFull = (sellerFree.get(lane(head.seller_id, head.mode)) ?? 0) <= 0;
    const endpointFull = (endpointFree.get(head.endpoint_id) ?? 0) <= 0;
    if (head.disabled_at !== null) {
      // Nothing goes to a disabled endpoint: its waiting deliveries are given up a batch per visit, then its head
      // idles until it is enabled (endpoints.ts wakes it).
      const more = await giveUpWaiting(trx, head.endpoint_id, { disabledAt: iso(head.disabled_at)!, at: now });
      updates.push({ endpointId: head.endpoint_id, wakes, dueAt: more ? now : null });
    } else if (served || (own.length > 0 && sellerFull && !endpointFull)) {
      // To the back of the queue: every other due endpoint comes first (round robin).
      updates.push({ endpointId: head.endpoint_id, wakes, dueAt: now });
    } else if (own.length === 0 || endpointFull) {
      // Nothing to take before its next due delivery or the end of a lease (a recorded attempt wakes it sooner).
      const times = [iso(head.next_future), endpointBusy.get(head.endpoint_id)?.firstEnd ?? null].filter((t): t is string => t !== null);
      updates.push({ endpointId: head.endpoint_id, wakes, dueAt: times.sort()[0] ?? null });
    }
    // Otherwise it had deliveries left when the claim's limit was reached: it stays where it is.
  }
  return { ids, heads: updates };
}

interface DueRow {
  id: number | string;
  endpoint_id: string;
  seller_id: string;
  customer_id: string;
  sequence: number | string;
  next_attempt_at: unknown;
  first_sequence: number | string | null;
}

interface BusyRow {
  seller_id: string;
  mode: string;
  endpoint_id: string;
  n: number | string;
  first_end: unknown;
}

/** Each due row's customer's earliest delivery to its endpoint still waiting for a first attempt (one index entry). */
const FIRST_SEQUENCE = `(select min(p.sequence) from webhook_deliveries p where p.endpoint_id = d.endpoint_id and p.customer_id = d.customer_id
  and p.attempts = 0 and p.next_attempt_at is not null) as first_sequence`;
const DUE_COLUMNS = 'd.id, d.endpoint_id, d.seller_id, d.customer_id, d.sequence, d.next_attempt_at';

/**
 * The attempts in flight of the heads' sellers (their leased rows, per endpoint) and each enabled endpoint's first
 * due, unleased deliveries. PostgreSQL: one statement and round trip (issue 36), the two kinds of rows told apart
 * by `kind`, of one text whatever the number of heads (the endpoints and their row limits are arrays, each read
 * through a lateral join): a union of a part per head made PostgreSQL plan every claim anew, 8 ms of its CPU each.
 * SQLite: two statements on the one connection.
 */
async function busyAndDue(
  trx: Kysely<Database>,
  dialect: DialectName,
  sellerIds: readonly string[],
  heads: readonly HeadRow[],
  slotsOf: Map<string, number>,
  now: string,
): Promise<{ busy: BusyRow[]; due: DueRow[] }> {
  const limitOf = (h: HeadRow) => rowsPerEndpoint(slotsOf.get(h.endpoint_id) ?? 1);
  if (dialect === 'postgres') {
    const rows = (
      await sql<DueRow & BusyRow & { kind: 'busy' | 'due' }>`${sql.raw(PREPARE_ONCE)}select 'busy' as kind, null::bigint as id, endpoint_id, seller_id, mode,
          null::uuid as customer_id, null::integer as sequence, null::timestamptz as next_attempt_at, null::integer as first_sequence,
          count(*) as n, min(lease_until) as first_end
        from webhook_deliveries where seller_id = any(${sellerIds}::uuid[]) and lease_until is not null and lease_until > ${now}
        group by seller_id, mode, endpoint_id
      union all
      select 'due', d.id, d.endpoint_id, d.seller_id, null, d.customer_id, d.sequence, d.next_attempt_at, d.first_sequence, null, null
        from unnest(${heads.map((h) => h.endpoint_id)}::uuid[], ${heads.map(limitOf)}::integer[]) as h(endpoint_id, row_limit)
        cross join lateral (select ${sql.raw(DUE_COLUMNS)}, ${sql.raw(FIRST_SEQUENCE)} from webhook_deliveries d
          where d.endpoint_id = h.endpoint_id and d.next_attempt_at is not null and d.next_attempt_at <= ${now}
            and (d.lease_until is null or d.lease_until <= ${now})
          order by d.next_attempt_at, d.id limit h.row_limit) d`.execute(trx)
    ).rows;
    return { busy: rows.filter((row) => row.kind === 'busy'), due: rows.filter((row) => row.kind === 'due') };
  }
  const busy = (
    await sql<BusyRow>`select seller_id, mode, endpoint_id, count(*) as n, min(lease_until) as first_end
      from webhook_deliveries where seller_id in (${sql.join([...sellerIds])}) and lease_until is not null and lease_until > ${now}
      group by seller_id, mode, endpoint_id`.execute(trx)
  ).rows;
  if (heads.length === 0) return { busy, due: [] };
  const parts = heads.map(
    (h, i) => sql`select * from (select ${sql.raw(DUE_COLUMNS)}, ${sql.raw(FIRST_SEQUENCE)} from webhook_deliveries d
      where d.endpoint_id = ${h.endpoint_id} and d.next_attempt_at is not null and d.next_attempt_at <= ${now}
        and (d.lease_until is null or d.lease_until <= ${now})
      order by d.next_attempt_at, d.id limit ${sql.lit(limitOf(h))}) as ${sql.raw(`due_${i}`)}`,
  );
  return { busy, due: (await sql<DueRow>`${sql.join(parts, sql` union all `)}`.execute(trx)).rows };
}

/**
 * Each endpoint's first due, unleased deliveries (`rows`, busyAndDue's); a row behind an earlier change of its
 * customer still waiting for a first attempt is replaced by that earlier change when it is free to go (the
 * customer's order holds).
 */
async function dueCandidates(trx: Kysely<Database>, dialect: DialectName, heads: HeadRow[], rows: readonly DueRow[], now: string): Promise<Candidate[]> {
  if (heads.length === 0) return [];
  const free = rows.filter((row) => row.first_sequence === null || Number(row.first_sequence) >= Number(row.sequence));
  const waiting = rows.filter((row) => !free.includes(row));
  const earlier = waiting.length === 0 ? [] : await firstChanges(trx, dialect, waiting, now);
  const seen = new Set<number>();
  const laneOf = new Map(heads.map((h) => [h.endpoint_id, lane(h.seller_id, h.mode)]));
  return [...free, ...earlier]
    .map((row) => ({ id: Number(row.id), endpointId: row.endpoint_id, sellerId: laneOf.get(row.endpoint_id)!, dueAt: ms(row.next_attempt_at) }))
    .filter((c) => !seen.has(c.id) && seen.add(c.id));
}

/**
 * The earliest delivery waiting for its first attempt of each waiting row's customer and endpoint, if it may go now.
 * PostgreSQL: one text whatever the number of rows (a lateral join over arrays, as busyAndDue).
 */
async function firstChanges(trx: Kysely<Database>, dialect: DialectName, waiting: DueRow[], now: string): Promise<DueRow[]> {
  const keys = [...new Map(waiting.map((row) => [`${row.endpoint_id} ${row.customer_id}`, row])).values()];
  const first = (endpointId: unknown, customerId: unknown) => sql`select ${sql.raw(DUE_COLUMNS)}, d.sequence as first_sequence, d.lease_until
      from webhook_deliveries d
      where d.endpoint_id = ${endpointId} and d.customer_id = ${customerId} and d.attempts = 0 and d.next_attempt_at is not null
      order by d.sequence limit 1`;
  const statement =
    dialect === 'postgres'
      ? sql`${sql.raw(PREPARE_ONCE)}select f.* from unnest(${keys.map((row) => row.endpoint_id)}::uuid[], ${keys.map((row) => row.customer_id)}::uuid[]) as k(endpoint_id, customer_id)
          cross join lateral (${first(sql.ref('k.endpoint_id'), sql.ref('k.customer_id'))}) f`
      : sql.join(keys.map((row, i) => sql`select * from (${first(row.endpoint_id, row.customer_id)}) as ${sql.raw(`first_${i}`)}`), sql` union all `);
  const rows = (await sql<DueRow & { lease_until: unknown }>`${statement}`.execute(trx)).rows;
  const at = ms(now);
  return rows.filter((row) => ms(row.next_attempt_at) <= at && (row.lease_until === null || ms(row.lease_until) <= at));
}

const SQLITE_SETTLE_HEAD = 'update webhook_delivery_heads set due_at = ?, wakes = ? where endpoint_id = ? and wakes = ?';

/**
 * SQLite, inside the claim's transaction (one writer): writes the visited heads' next due times, each only if no
 * wake came since the claim read it, from one statement prepared once and run synchronously.
 */
export function settleHeads(updates: readonly HeadUpdate[], writeRun: NonNullable<DatabaseHandle['writeRun']>): void {
  for (const { endpointId, wakes, dueAt } of [...updates].sort((a, b) => a.endpointId.localeCompare(b.endpointId))) {
    writeRun(SQLITE_SETTLE_HEAD, [dueAt, wakes + 1, endpointId, wakes]);
  }
}

/**
 * PostgreSQL: {@link settleHeads} as three CTEs of the claim's last statement (`settle_v`, `settle_locked`,
 * `settled`; issue 36: a claim visits up to a dozen heads, and settling them after the commit was a round trip of
 * its own). Each head is written only if no wake came since the claim read it, and only if no other transaction
 * holds it: `for update skip locked`, so the settle never waits. It runs last in the claim's transaction (`after`,
 * a one-time filter on what must be done first): the transaction then holds heads only while it no longer waits
 * on anything, so it cannot close a cycle with the outbox triggers, which lock heads in endpoint order and may wait
 * on the deliveries this claim leases. A head skipped keeps its earlier due time (a lock holder that wakes it moves
 * it anyway): the next claim visits it again, which costs a read, never a delivery.
 */
export function settleHeadsCtes(updates: readonly HeadUpdate[], after: RawBuilder<unknown>) {
  return sql`settle_v as (select * from unnest(${updates.map((u) => u.endpointId)}::uuid[], ${updates.map((u) => u.wakes)}::integer[],
        ${updates.map((u) => u.dueAt)}::timestamptz[]) as v(endpoint_id, wakes, due_at)),
      settle_locked as (select h.endpoint_id from webhook_delivery_heads h join settle_v v on v.endpoint_id = h.endpoint_id and v.wakes = h.wakes
        where ${after} order by h.endpoint_id for update of h skip locked),
      settled as (update webhook_delivery_heads h set due_at = v.due_at, wakes = v.wakes + 1 from settle_v v
        where h.endpoint_id = v.endpoint_id and h.wakes = v.wakes and h.endpoint_id in (select endpoint_id from settle_locked)
        returning h.endpoint_id)`;
}

/** {@link settleHeadsCtes} alone, inside the claim's transaction: a claim that leased nothing. */
export async function settleHeadsSkippingLocked(trx: Kysely<Database>, updates: readonly HeadUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  await sql`${sql.raw(PREPARE_ONCE)}with ${settleHeadsCtes(updates, sql`true`)} select count(*) from settled`.execute(trx);
}

/**
 * Makes an endpoint's head due at its earliest waiting delivery again (enabling it: claims leave a disabled
 * endpoint's head idle). One index read; the seller's own endpoint only.
 *
 * @example
 * await wakeHead(handle, sellerId, endpointId);
 */
export async function wakeHead(handle: { db: Kysely<Database> }, sellerId: string, endpointId: string): Promise<void> {
  await sql`update webhook_delivery_heads set wakes = wakes + 1, due_at = (select min(d.next_attempt_at) from webhook_deliveries d
      where d.endpoint_id = ${endpointId} and d.next_attempt_at is not null)
    where endpoint_id = ${endpointId} and seller_id = ${sellerId}`.execute(handle.db);
}
