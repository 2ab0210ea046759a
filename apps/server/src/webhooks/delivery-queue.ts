import { nextRetryDelay } from '@customers-api/core';
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import { compileOnce } from '../db/compile-once.js';
import { sqliteWriter, type DatabaseHandle } from '../db/connect.js';
import { PREPARE_ONCE } from '../db/postgres-pool.js';
import { toIsoOrNull } from '../db/rows.js';
import type { CustomerChangesTable, Database } from '../db/schema.js';
import { writeTransaction } from '../db/write-transaction.js';
import { recordEndpointHealth } from './endpoint-health.js';
import { planClaim, settleHeads, settleHeadsCtes, settleHeadsSkippingLocked } from './claim-plan.js';

// The deliveries table as a work queue shared by every server process. A worker claims due rows with a lease
// (its id and a time); others skip them until the lease runs out, which the worker keeps moving on while the
// attempt runs. A worker killed with -9 therefore only delays its rows until their lease ends.

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  endpointId: string;
  url: string;
  /** Sealed; opened by the worker just before signing. */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  /** The endpoint's pinned API version (its events are rendered in it); null: the latest. */
  apiVersion: string | null;
  /** When it fell due (ISO): the attempt's lag is measured from here (observability's histogram). */
  dueAt: string | null;
  change: Selectable<CustomerChangesTable>;
}

export interface ClaimOptions {
  now: Date;
  leaseMs: number;
  /** The claiming worker. */
  owner: string;
  limit: number;
  /** Only endpoints whose secrets this process's key opens. */
  keyId: string;
  /** Attempts in flight per seller across every process; delivery-fairness.ts's by default. */
  sellerSlots?: number | undefined;
  /** Attempts in flight per endpoint across every process while it answers in time; delivery-fairness.ts's by default. */
  endpointSlots?: number | undefined;
  /** Skip the cheap "is anything due?" look before the transaction (the caller's last claim found work). */
  busy?: boolean | undefined;
}

const selectAnyDueHead = compileOnce((db, now: string) =>
  db.selectFrom('webhook_delivery_heads').select('endpoint_id').where('due_at', 'is not', null).where('due_at', '<=', now).limit(1),
);

/**
 * Claims up to `limit` due deliveries, fairly: per-seller and per-endpoint slots counted across processes, round
 * robin across sellers and across a seller's endpoints (claim-plan.ts, claim-selection.ts). A delivery waits while
 * an earlier change of the same customer to the same endpoint has not had its first attempt (per-customer order;
 * no order once retries begin). What a claim reads is bounded by what it may take, whatever waits: it starts from
 * the endpoints whose queue head is due (db/delivery-heads.ts). The choice and the leases are one transaction;
 * claims of one seller queue for each other (SQLite's write lock; on PostgreSQL a per-seller advisory lock that
 * other claims skip), so two processes never both take a seller's last free slot.
 *
 * @example
 * const claimed = await claimDeliveries(handle, { now: new Date(), leaseMs: 5000, owner, limit: 8, keyId });
 */
export async function claimDeliveries(handle: DatabaseHandle, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const now = options.now.toISOString();
  // Asked after every burst of writes and every poll, and nearly always "no": answered by the heads' due index
  // alone, from a statement compiled once, before any transaction.
  if (!options.busy && (await selectAnyDueHead(handle, now)).rows.length === 0) return [];
  const { ids, claimed } = await writeTransaction(handle, (trx) => leaseClaim(trx, handle, options));
  return claimed ?? loadClaimed(handle, ids, options.owner);
}

/** What {@link leaseClaim} leased: the ids and (PostgreSQL) the rows to send. */
interface Leased {
  ids: number[];
  /** PostgreSQL: read by the lease's own statement (no second round trip); SQLite: loaded after the commit. */
  claimed?: ClaimedDelivery[] | undefined;
}

/**
 * A claim's choice and leases, inside the caller's write transaction, and the visited heads settled in it: the
 * claimed ids and (PostgreSQL) their rows. PostgreSQL settles the heads in the lease's own statement, after the
 * leases and skipping heads another transaction holds (claim-plan.ts says why that cannot deadlock).
 */
async function leaseClaim(trx: Kysely<Database>, handle: DatabaseHandle, options: ClaimOptions): Promise<Leased> {
  const { dialect } = handle;
  const now = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const plan = await planClaim(trx, dialect, { ...options, now });
  if (dialect === 'postgres') {
    if (plan.ids.length === 0) {
      await settleHeadsSkippingLocked(trx, plan.heads);
      return { ids: [], claimed: [] };
    }
    // One round trip: the leases taken, the heads settled once every lease is taken (a one-time filter on the
    // leased rows' count), and what sending them needs, the rows this transaction leased (issue 36).
    const { rows } = await sql<ClaimedRow>`${sql.raw(PREPARE_ONCE)}with leased as (
        update webhook_deliveries set lease_until = ${leaseUntil}, lease_owner = ${options.owner}
        where id = any(${plan.ids}::bigint[]) and (lease_until is null or lease_until <= ${now})
        returning id, attempts, next_attempt_at, endpoint_id, change_id),
      ${settleHeadsCtes(plan.heads, sql`(select count(*) from leased) >= 0`)}
      select ${sql.raw(CLAIMED_COLUMNS)} from leased d ${sql.raw(CLAIMED_JOINS)}
      order by d.next_attempt_at, d.id`.execute(trx);
    const claimed = rows.map(claimedOf);
    return { ids: claimed.map((d) => d.id), claimed };
  }
  // SQLite: statements prepared once, a row at a time, inside the claim's transaction.
  const writeRun = sqliteWriter(handle);
  settleHeads(plan.heads, writeRun);
  return { ids: plan.ids.filter((id) => writeRun(SQLITE_LEASE, [leaseUntil, options.owner, id, now]).changes > 0) };
}

const SQLITE_LEASE = 'update webhook_deliveries set lease_until = ?, lease_owner = ? where id = ? and (lease_until is null or lease_until <= ?)';
/** What sending a claimed delivery `d` needs (its endpoint `e` and change `c`): PostgreSQL's lease and SQLite's load. */
const CLAIMED_COLUMNS = `c.*, d.id as delivery_id, d.attempts, d.next_attempt_at as due_at, e.id as endpoint_id, e.url, e.secret,
  e.previous_secret, e.previous_secret_expires_at, e.api_version as endpoint_api_version`;
const CLAIMED_JOINS = 'join webhook_endpoints e on e.id = d.endpoint_id join customer_changes c on c.id = d.change_id';
/** {@link loadClaimed}'s read as one SQL text whatever the number of ids (a JSON array): prepared once. */
const SQLITE_LOAD_CLAIMED = `select ${CLAIMED_COLUMNS} from webhook_deliveries d ${CLAIMED_JOINS}
  where d.id in (select value from json_each(?)) and d.lease_owner = ?
  order by d.next_attempt_at, d.id`;

/**
 * SQLite (PostgreSQL's lease returns its rows): what sending the claimed deliveries needs, in due order; only rows
 * `owner` holds. After the claim's commit, from the committed data when the handle has a read connection (a file).
 */
async function loadClaimed(handle: DatabaseHandle, ids: readonly number[], owner: string): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const parameters = [JSON.stringify(ids), owner];
  const rows = handle.readCommitted
    ? handle.readCommitted(SQLITE_LOAD_CLAIMED, parameters)
    : (await handle.db.executeQuery(CompiledQuery.raw(SQLITE_LOAD_CLAIMED, parameters))).rows;
  return (rows as ClaimedRow[]).map(claimedOf);
}

/** A claimed row as loadClaimed (and PostgreSQL's lease statement) select it: the change's columns and these. */
interface ClaimedRow {
  delivery_id: number | string;
  attempts: number | string;
  due_at: unknown;
  endpoint_id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: unknown;
  endpoint_api_version: string | null;
}

function claimedOf({ delivery_id, attempts, due_at, endpoint_id, url, secret, previous_secret, previous_secret_expires_at, endpoint_api_version, ...change }: ClaimedRow): ClaimedDelivery {
  return {
    id: Number(delivery_id),
    attempts: Number(attempts),
    dueAt: toIsoOrNull(due_at as string | Date | null),
    endpointId: endpoint_id,
    url,
    secret,
    previousSecret: previous_secret,
    previousSecretExpiresAt: toIsoOrNull(previous_secret_expires_at as string | Date | null),
    apiVersion: endpoint_api_version,
    change: change as unknown as Selectable<CustomerChangesTable>,
  };
}

/** Moves the lease of the worker's deliveries in flight on, so nobody else takes them while they run. */
export async function renewLeases(
  handle: DatabaseHandle,
  { ids, owner, leaseUntil }: { ids: number[]; owner: string; leaseUntil: Date },
): Promise<void> {
  if (ids.length === 0) return;
  await handle.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil.toISOString() })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * How one attempt ended: a status from the receiver, or an error before one came (refused, or `timedOut`: no
 * answer within the timeout). `error` is recorded and shown to the seller, `detail` only logged.
 */
export type AttemptOutcome =
  | { status: number; acknowledged: boolean; /** The first 2 KiB of the answer's body. */ body?: string; /** Bounded, redacted (response-headers.ts). */ headers?: Record<string, string> }
  | { error: string; timedOut?: boolean; detail?: string };

/** How an attempt was made, kept with it (migration 014) for the dashboard's delivery detail. */
export interface SentAttempt {
  startedAt: Date;
  durationMs: number;
  /** The `webhook-signature` header sent (signatures only). */
  signature: string;
}

/**
 * Records an attempt by the lease's owner (a worker whose lease was taken over records nothing): delivered, or
 * due again after core's next retry delay, or given up after the last one, which marks the endpoint failing
 * until a later delivery to it succeeds. The endpoint's health is recorded with it (endpoint-health.ts): an
 * endpoint disabled now, or before, has the delivery given up instead of retried. The attempt itself is kept in
 * the same transaction (one insert): when, how long, status or failure, the start of the answer.
 */
export async function recordAttempt(
  handle: DatabaseHandle,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
  { now, owner, random = Math.random, sent }: { now: Date; owner: string; random?: () => number; sent?: SentAttempt },
): Promise<'delivered' | 'retrying' | 'failed' | 'lost'> {
  const at = now.toISOString();
  const attempts = delivery.attempts + 1;
  const acknowledged = 'acknowledged' in outcome && outcome.acknowledged;
  const timedOut = 'timedOut' in outcome && outcome.timedOut === true;
  const delay = acknowledged ? undefined : nextRetryDelay(attempts, random);
  return writeTransaction(handle, async (trx) => {
    const { disabled } = await recordEndpointHealth(trx, delivery.endpointId, { acknowledged, timedOut }, now);
    const retry = delay !== undefined && !disabled;
    const result = acknowledged ? 'delivered' : retry ? 'retrying' : 'failed';
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts,
        last_attempt_at: at,
        last_status: 'status' in outcome ? outcome.status : null,
        last_error: 'error' in outcome ? outcome.error.slice(0, 500) : null,
        lease_until: null,
        lease_owner: null,
        next_attempt_at: retry ? new Date(now.getTime() + delay).toISOString() : null,
        ...(acknowledged ? { delivered_at: at, given_up_at: null } : retry ? {} : { given_up_at: at }),
      })
      .where('id', '=', delivery.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) {
      // Another worker holds the delivery now: this attempt teaches nothing, undo its lesson.
      throw new LostLease();
    }
    await trx
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: delivery.id,
        endpoint_id: delivery.endpointId,
        attempt: attempts,
        attempted_at: (sent?.startedAt ?? now).toISOString(),
        duration_ms: Math.max(0, Math.round(sent?.durationMs ?? 0)),
        status_code: 'status' in outcome ? outcome.status : null,
        error: 'error' in outcome ? outcome.error.slice(0, 500) : null,
        response_body: 'body' in outcome ? (outcome.body ?? null) : null,
        response_headers: 'headers' in outcome && outcome.headers ? JSON.stringify(outcome.headers) : null,
        signature: sent?.signature ?? '',
      })
      .execute();
    if (result === 'failed') {
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: at })
        .where('id', '=', delivery.endpointId)
        .where('failing_since', 'is', null)
        .execute();
    }
    return result;
  }).catch((error: unknown) => {
    if (error instanceof LostLease) return 'lost' as const;
    throw error;
  });
}

/** An acknowledged attempt waiting to be recorded with others (see {@link recordDelivered}). */
export interface DeliveredAttempt {
  delivery: ClaimedDelivery;
  outcome: { status: number; body?: string; headers?: Record<string, string> };
  sent?: SentAttempt | undefined;
}

/**
 * Records a batch of acknowledged attempts by the leases' owner in one transaction and a few statements,
 * whatever the batch's size (issue 36: one transaction per attempt was most of the worker's cost): the endpoints'
 * health cleared (one update, usually a no-op), the deliveries marked delivered (one update per distinct status,
 * only the rows this owner still holds), their attempts kept (one insert; on PostgreSQL both in one statement).
 * Returns each delivery's result:
 * `delivered`, or `lost` when another worker holds it now (nothing of it is recorded). The same outcome, row for
 * row, as {@link recordAttempt} of each.
 *
 * @example
 * const results = await recordDelivered(handle, [{ delivery, outcome: { status: 204 } }], { now, owner });
 */
export async function recordDelivered(
  handle: DatabaseHandle,
  attempts: readonly DeliveredAttempt[],
  { now, owner }: { now: Date; owner: string },
): Promise<Map<number, 'delivered' | 'lost'>> {
  if (attempts.length === 0) return new Map();
  return writeTransaction(handle, (trx) => recordDeliveredIn(trx, handle, attempts, { now, owner }));
}

/**
 * {@link recordDelivered} and the next claim in one write transaction (one commit where there were two, issue 36):
 * the worker records the attempts that ended together and fills the slots they freed at once. `claim` undefined:
 * the record alone. A claim that fails for another reason than the database's absence undoes the record too; the
 * caller records again without it.
 *
 * @example
 * const { results, claimed } = await recordAndClaim(handle, attempts, { now, owner }, { now, owner, leaseMs, limit: 4, keyId });
 */
export async function recordAndClaim(
  handle: DatabaseHandle,
  attempts: readonly DeliveredAttempt[],
  record: { now: Date; owner: string },
  claim: ClaimOptions | undefined,
): Promise<{ results: Map<number, 'delivered' | 'lost'>; claimed: ClaimedDelivery[] }> {
  const { results, ids, claimed } = await writeTransaction(handle, async (trx) => {
    const recorded = attempts.length === 0 ? new Map<number, 'delivered' | 'lost'>() : await recordDeliveredIn(trx, handle, attempts, record);
    const lease: Leased = claim && claim.limit > 0 ? await leaseClaim(trx, handle, claim) : { ids: [] };
    return { results: recorded, ...lease };
  });
  return { results, claimed: claim ? (claimed ?? (await loadClaimed(handle, ids, claim.owner))) : [] };
}

async function recordDeliveredIn(
  trx: Kysely<Database>,
  handle: DatabaseHandle,
  attempts: readonly DeliveredAttempt[],
  { now, owner }: { now: Date; owner: string },
): Promise<Map<number, 'delivered' | 'lost'>> {
  const results = new Map<number, 'delivered' | 'lost'>(attempts.map(({ delivery }) => [delivery.id, 'lost']));
  const at = now.toISOString();
  // Endpoints first, in id order, as recordAttempt and a disable lock them: no deadlock with either.
  const endpointIds = [...new Set(attempts.map(({ delivery }) => delivery.endpointId))].sort();
  const recorded = handle.dialect === 'postgres'
    ? await markDeliveredPostgres(trx, endpointIds, attempts, { at, owner })
    : markDeliveredSqlite(sqliteWriter(handle), endpointIds, attempts, { at, owner });
  for (const id of recorded) results.set(id, 'delivered');
  return results;
}

const SQLITE_ENDPOINT_ANSWERS = `update webhook_endpoints set timeouts_in_a_row = 0, attempts_failing_since = null, failing_since = null
  where id = ? and (timeouts_in_a_row != 0 or attempts_failing_since is not null or failing_since is not null)`;
const SQLITE_MARK_DELIVERED = `update webhook_deliveries set attempts = attempts + 1, last_attempt_at = ?, last_status = ?, last_error = null,
  lease_until = null, lease_owner = null, next_attempt_at = null, delivered_at = ?, given_up_at = null where id = ? and lease_owner = ?`;
const SQLITE_KEEP_ATTEMPT = `insert into webhook_delivery_attempts
  (delivery_id, endpoint_id, attempt, attempted_at, duration_ms, status_code, error, response_body, response_headers, signature)
  values (?, ?, ?, ?, ?, ?, null, ?, ?, ?)`;

/**
 * SQLite: the same writes as PostgreSQL's statement, from three statements prepared once on the
 * write connection and run synchronously inside the caller's transaction, a row at a time (issue 36: building and
 * compiling the batch's statements, a new SQL text per batch size, was most of a record's CPU, profiled). The ids
 * recorded: a row another worker holds now is left alone and keeps no attempt.
 */
function markDeliveredSqlite(
  writeRun: NonNullable<DatabaseHandle['writeRun']>,
  endpointIds: readonly string[],
  attempts: readonly DeliveredAttempt[],
  { at, owner }: { at: string; owner: string },
): number[] {
  for (const id of endpointIds) writeRun(SQLITE_ENDPOINT_ANSWERS, [id]);
  const recorded: number[] = [];
  for (const { delivery, outcome, sent } of attempts) {
    if (writeRun(SQLITE_MARK_DELIVERED, [at, outcome.status, at, delivery.id, owner]).changes === 0) continue;
    recorded.push(delivery.id);
    writeRun(SQLITE_KEEP_ATTEMPT, [
      delivery.id,
      delivery.endpointId,
      delivery.attempts + 1,
      (sent?.startedAt ?? new Date(at)).toISOString(),
      Math.max(0, Math.round(sent?.durationMs ?? 0)),
      outcome.status,
      outcome.body ?? null,
      outcome.headers ? JSON.stringify(outcome.headers) : null,
      sent?.signature ?? '',
    ]);
  }
  return recorded;
}

/**
 * PostgreSQL: the endpoints' health cleared, then the batch's deliveries marked delivered (only the rows `owner`
 * still holds) and their attempts kept, in one statement and round trip whatever the batch's size and statuses: a
 * column per array parameter (unnest), the insert fed by the update's own returned rows. The ids recorded.
 * Endpoints before deliveries, as every writer locks them (an endpoint's edits, a failed attempt's record): the
 * delivered rows' update reads the health update's count in its condition, an init plan that runs it to the end
 * before the first delivery row is locked (sub-statements of a WITH otherwise run in no promised order).
 */
async function markDeliveredPostgres(
  trx: Kysely<Database>,
  endpointIds: readonly string[],
  attempts: readonly DeliveredAttempt[],
  { at, owner }: { at: string; owner: string },
): Promise<number[]> {
  const column = <T>(value: (attempt: DeliveredAttempt) => T) => attempts.map(value);
  const { rows } = await sql<{ id: number | string }>`${sql.raw(PREPARE_ONCE)}with v as (
      select * from unnest(${column((a) => a.delivery.id)}::bigint[], ${column((a) => a.delivery.attempts + 1)}::integer[],
        ${column((a) => a.outcome.status)}::integer[], ${column((a) => (a.sent?.startedAt ?? new Date(at)).toISOString())}::timestamptz[],
        ${column((a) => Math.max(0, Math.round(a.sent?.durationMs ?? 0)))}::integer[], ${column((a) => a.outcome.body ?? null)}::text[],
        ${column((a) => (a.outcome.headers ? JSON.stringify(a.outcome.headers) : null))}::text[], ${column((a) => a.sent?.signature ?? '')}::text[])
        with ordinality as v(id, attempt, status, attempted_at, duration_ms, response_body, response_headers, signature, n)),
    health as (
      update webhook_endpoints set timeouts_in_a_row = 0, attempts_failing_since = null, failing_since = null
      where id = any(${endpointIds}::uuid[]) and (timeouts_in_a_row != 0 or attempts_failing_since is not null or failing_since is not null)
      returning id),
    done as (
      update webhook_deliveries d set attempts = d.attempts + 1, last_attempt_at = ${at}, last_status = v.status, last_error = null,
        lease_until = null, lease_owner = null, next_attempt_at = null, delivered_at = ${at}, given_up_at = null
      from v where d.id = v.id and d.lease_owner = ${owner} and (select count(*) from health) >= 0
      returning d.id, d.endpoint_id),
    kept as (
      insert into webhook_delivery_attempts (delivery_id, endpoint_id, attempt, attempted_at, duration_ms, status_code, error, response_body, response_headers, signature)
      select done.id, done.endpoint_id, v.attempt, v.attempted_at, v.duration_ms, v.status, null, v.response_body, v.response_headers, v.signature
      from done join v on v.id = done.id order by v.n)
    select id from done`.execute(trx);
  return rows.map((row) => Number(row.id));
}

/** Rolls back recordAttempt's transaction when its lease was lost. */
class LostLease extends Error {}
