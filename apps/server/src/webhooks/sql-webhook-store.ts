import {
  customerEvent,
  type CustomerEvent,
  type CustomerEventType,
  type EndpointInsertResult,
  type EndpointPageRequest,
  type EndpointUpdateResult,
  type EventPageRequest,
  type IdempotencyRecord,
  type ListPosition,
  type ReplayRequest,
  type ReplayResult,
  type StoredWebhookEndpoint,
  type Tenant,
  type WebhookEndpointChanges,
  type WebhookStore,
} from '@customers-api/core';
import { sql, type Kysely, type RawBuilder, type Selectable, type Updateable } from 'kysely';
import { fieldChanges, type AuditDetails } from '../audit/audit-details.js';
import { audited } from '../audit/audit-log.js';
import type { AuditAction, AuditContext, AuditEntry } from '../audit/audit-actions.js';
import type { DatabaseHandle } from '../db/connect.js';
import { fromJson, toIso, toIsoOrNull } from '../db/rows.js';
import type { Database, WebhookEndpointsTable } from '../db/schema.js';
import { changeFromRow } from './changes.js';
import { urlTakenIn } from './endpoints.js';
import { wakeHead } from './claim-plan.js';
import { giveUpWaiting } from './delivery-caps.js';
import type { SecretBox } from './secret-box.js';

// Core's WebhookStore over the server's tables: endpoints (secrets sealed by the SecretBox, opened only to answer
// create and rotate, and to sign), the outbox (customer_changes: the events) and webhook_deliveries (one per event
// and subscribed endpoint). Every change is written with its audit row in one transaction, for the actor the
// store was made for (an API key's request, a dashboard session, the CLI).

type EndpointRow = Selectable<WebhookEndpointsTable>;

export class SqlWebhookStore implements WebhookStore {
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly box: SecretBox,
    private readonly audit: AuditContext,
    /** The audit rows' time: the app's clock (tests pin it). */
    private readonly now: () => Date = () => new Date(),
  ) {}

  #audited<T>(work: (db: Kysely<Database>) => Promise<T>, entry: (result: T) => AuditEntry | undefined): Promise<T> {
    return audited(this.handle, this.audit, (trx) => work(trx.db), entry, this.now());
  }

  #fromRow(row: EndpointRow): StoredWebhookEndpoint {
    return {
      id: row.id,
      sellerId: row.seller_id,
      mode: row.mode === 'test' ? 'test' : 'live',
      url: row.url,
      events: fromJson<CustomerEventType[]>(row.event_types),
      description: row.description,
      apiVersion: row.api_version ?? '',
      disabledAt: toIsoOrNull(row.disabled_at),
      failingSince: toIsoOrNull(row.failing_since),
      secret: this.box.open(row.secret, row.id),
      previousSecret: row.previous_secret === null ? null : this.box.open(row.previous_secret, row.id),
      previousSecretExpiresAt: toIsoOrNull(row.previous_secret_expires_at),
      createdAt: toIso(row.created_at),
    };
  }

  async insertEndpoint(
    endpoint: StoredWebhookEndpoint,
    options: { cap: number; idempotency?: IdempotencyRecord | undefined },
  ): Promise<EndpointInsertResult> {
    const { sellerId, mode } = endpoint;
    const { idempotency } = options;
    return this.#audited(
      async (db): Promise<EndpointInsertResult> => {
        // Under the seller's lock (PostgreSQL) or the write lock (SQLite): two creates at the cap, at one URL or
        // with one key cannot both pass.
        let seller = db.selectFrom('sellers').select('webhook_endpoint_limit').where('id', '=', sellerId);
        if (this.handle.dialect === 'postgres') seller = seller.forNoKeyUpdate();
        const own = (await seller.executeTakeFirst())?.webhook_endpoint_limit;
        if (idempotency) {
          const remembered = await db
            .selectFrom('webhook_endpoint_idempotency_keys as k')
            .innerJoin('webhook_endpoints as e', 'e.id', 'k.endpoint_id')
            .selectAll('e')
            .select(['k.fingerprint', 'k.expires_at'])
            .where('k.seller_id', '=', sellerId)
            .where('k.mode', '=', mode)
            .where('k.key', '=', idempotency.key)
            .executeTakeFirst();
          if (remembered && toIso(remembered.expires_at) > endpoint.createdAt) {
            return { kind: 'idempotent_replay', endpoint: this.#fromRow(remembered), fingerprint: remembered.fingerprint };
          }
          if (remembered) {
            await db.deleteFrom('webhook_endpoint_idempotency_keys').where('seller_id', '=', sellerId).where('mode', '=', mode).where('key', '=', idempotency.key).execute();
          }
        }
        const cap = own ?? options.cap;
        const { count } = await db
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('seller_id', '=', sellerId)
          .where('mode', '=', mode)
          .executeTakeFirstOrThrow();
        if (Number(count) >= cap) return { kind: 'limit_reached', limit: cap };
        if (await urlTakenIn(db, sellerId, endpoint.url, undefined, mode)) return { kind: 'url_taken' };
        await db
          .insertInto('webhook_endpoints')
          .values({
            id: endpoint.id,
            seller_id: sellerId,
            mode,
            url: endpoint.url,
            event_types: JSON.stringify(endpoint.events),
            secret: this.box.seal(endpoint.secret, endpoint.id),
            secret_key_id: this.box.keyId,
            previous_secret: null,
            previous_secret_expires_at: null,
            created_at: endpoint.createdAt,
            failing_since: endpoint.failingSince,
            disabled_at: endpoint.disabledAt,
            api_version: endpoint.apiVersion,
            description: endpoint.description,
          })
          .execute();
        if (idempotency) {
          await db
            .insertInto('webhook_endpoint_idempotency_keys')
            .values({ seller_id: sellerId, mode, key: idempotency.key, fingerprint: idempotency.fingerprint, endpoint_id: endpoint.id, expires_at: idempotency.expiresAt })
            .execute();
        }
        return { kind: 'created', endpoint };
      },
      (result) => (result.kind === 'created' ? { sellerId, mode, action: 'webhook_endpoint.created', targetId: endpoint.id } : undefined),
    );
  }

  async findEndpoint(tenant: Tenant, id: string): Promise<StoredWebhookEndpoint | undefined> {
    const row = await findRow(this.handle.db, tenant, id);
    return row && this.#fromRow(row);
  }

  async listEndpoints(tenant: Tenant, page: EndpointPageRequest): Promise<StoredWebhookEndpoint[]> {
    let query = this.handle.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('seller_id', '=', tenant.sellerId)
      .where('mode', '=', tenant.mode);
    const { after } = page;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    return rows.map((row) => this.#fromRow(row));
  }

  async updateEndpoint(tenant: Tenant, id: string, changes: WebhookEndpointChanges): Promise<EndpointUpdateResult> {
    const { sellerId, mode } = tenant;
    const action: AuditAction =
      Object.keys(changes).length === 1 && changes.disabledAt !== undefined
        ? changes.disabledAt === null
          ? 'webhook_endpoint.enabled'
          : 'webhook_endpoint.disabled'
        : 'webhook_endpoint.updated';
    // The audit row of an edit records each changed field's before and after values (never the secret).
    let details: AuditDetails | undefined;
    return this.#audited(
      async (db): Promise<EndpointUpdateResult> => {
        const current = await findRow(db, tenant, id);
        if (!current) return { kind: 'not_found' };
        if (changes.url !== undefined && (await urlTakenIn(db, sellerId, changes.url, id, mode))) return { kind: 'url_taken' };
        const set: Updateable<WebhookEndpointsTable> = {};
        if (changes.url !== undefined) set.url = changes.url;
        if (changes.events !== undefined) set.event_types = JSON.stringify(changes.events);
        if (changes.description !== undefined) set.description = changes.description;
        if (changes.apiVersion !== undefined) set.api_version = changes.apiVersion;
        if (changes.disabledAt === null) Object.assign(set, { disabled_at: null, attempts_failing_since: null, timeouts_in_a_row: 0 });
        if (changes.disabledAt) set.disabled_at = changes.disabledAt;
        await db.updateTable('webhook_endpoints').set(set).where('seller_id', '=', sellerId).where('mode', '=', mode).where('id', '=', id).execute();
        if (changes.disabledAt && current.disabled_at === null) {
          // As the dashboard's disable (endpoint-edits.ts): one bounded batch of what waits is given up now; when
          // more wait, the queue head is made due so claims give up the rest, a batch at a time.
          if (await giveUpWaiting(db, id, { disabledAt: changes.disabledAt, at: changes.disabledAt })) {
            await db.updateTable('webhook_delivery_heads').set((eb) => ({ due_at: changes.disabledAt!, wakes: eb('wakes', '+', 1) })).where('endpoint_id', '=', id).execute();
          }
        }
        if (changes.disabledAt === null && current.disabled_at !== null) {
          // Claims left its queue head idle while disabled: deliveries resent meanwhile go now (as the dashboard's enable).
          await wakeHead({ db }, sellerId, id);
        }
        const row = await findRow(db, tenant, id);
        details = fieldChanges(auditedFields(current), auditedFields(row!), AUDITED_ENDPOINT_FIELDS);
        return { kind: 'updated', endpoint: this.#fromRow(row!) };
      },
      (result) => (result.kind === 'updated' ? { sellerId, mode, action, targetId: id, details } : undefined),
    );
  }

  async deleteEndpoint(tenant: Tenant, id: string): Promise<boolean> {
    const { sellerId, mode } = tenant;
    return this.#audited(
      async (db) => {
        const result = await db
          .deleteFrom('webhook_endpoints')
          .where('seller_id', '=', sellerId)
          .where('mode', '=', mode)
          .where('id', '=', id)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      },
      (deleted) => (deleted ? { sellerId, mode, action: 'webhook_endpoint.deleted', targetId: id } : undefined),
    );
  }

  async rotateSecret(
    tenant: Tenant,
    id: string,
    secret: string,
    previousExpiresAt: string | null,
  ): Promise<StoredWebhookEndpoint | undefined> {
    const { sellerId, mode } = tenant;
    return this.#audited(
      async (db) => {
        const current = await findRow(db, tenant, id);
        if (!current) return undefined;
        await db
          .updateTable('webhook_endpoints')
          .set({
            secret: this.box.seal(secret, id),
            secret_key_id: this.box.keyId,
            // Re-sealed with the current key: the row names one key for both.
            previous_secret: previousExpiresAt === null ? null : this.box.seal(this.box.open(current.secret, id), id),
            previous_secret_expires_at: previousExpiresAt,
          })
          .where('seller_id', '=', sellerId)
          .where('mode', '=', mode)
          .where('id', '=', id)
          .execute();
        return this.#fromRow((await findRow(db, tenant, id))!);
      },
      (rotated) => (rotated ? { sellerId, mode, action: 'webhook_endpoint.secret_rotated', targetId: id } : undefined),
    );
  }

  async listEvents(tenant: Tenant, page: EventPageRequest): Promise<CustomerEvent[]> {
    let query = this.handle.db
      .selectFrom('customer_changes as c')
      .selectAll('c')
      .where('c.seller_id', '=', tenant.sellerId)
      .where('c.mode', '=', tenant.mode)
      .where('c.occurred_at', '>=', page.notBefore);
    if (page.type !== undefined) query = query.where('c.type', '=', page.type);
    if (page.customerId !== undefined) query = query.where('c.customer_id', '=', page.customerId);
    if (page.createdFrom !== undefined) query = query.where('c.occurred_at', '>=', page.createdFrom);
    if (page.createdBefore !== undefined) query = query.where('c.occurred_at', '<', page.createdBefore);
    const endpointId = page.undeliveredTo;
    if (endpointId !== undefined) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as d')
            .select('d.id')
            .whereRef('d.change_id', '=', 'c.id')
            .where('d.endpoint_id', '=', endpointId)
            .where('d.delivered_at', 'is', null),
        ),
      );
    }
    const at = occurredAt(this.handle.dialect);
    const { after } = page;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb(at, '<', after.createdAt), eb.and([eb(at, '=', after.createdAt), eb('c.event_id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy(at, 'desc').orderBy('c.event_id', 'desc').limit(page.limit).execute();
    return rows.map((row) => customerEvent(changeFromRow(row)));
  }

  async findEvent(tenant: Tenant, id: string, notBefore: string): Promise<CustomerEvent | undefined> {
    const row = await this.handle.db
      .selectFrom('customer_changes')
      .selectAll()
      .where('seller_id', '=', tenant.sellerId)
      .where('mode', '=', tenant.mode)
      .where('event_id', '=', id)
      .where('occurred_at', '>=', notBefore)
      .executeTakeFirst();
    return row && customerEvent(changeFromRow(row));
  }

  async replayEvents(tenant: Tenant, endpointId: string, request: ReplayRequest): Promise<ReplayResult> {
    const { sellerId, mode } = tenant;
    return this.#audited(
      async (db): Promise<ReplayResult> => {
        // The endpoint is the tenant's: its deliveries are of its mode's events only.
        const endpoint = await findRow(db, tenant, endpointId);
        if (!endpoint) return { kind: 'not_found' };
        if (endpoint.disabled_at !== null) return { kind: 'disabled' };
        let query = db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('customer_changes as c', 'c.id', 'd.change_id')
          .select(['d.id', 'c.occurred_at', 'c.event_id'])
          .where('d.endpoint_id', '=', endpointId)
          .where('d.seller_id', '=', sellerId)
          // Not waiting already: given up, or (unless only undelivered) delivered.
          .where('d.next_attempt_at', 'is', null)
          .where((eb) =>
            request.onlyUndelivered
              ? eb('d.given_up_at', 'is not', null)
              : eb.or([eb('d.given_up_at', 'is not', null), eb('d.delivered_at', 'is not', null)]),
          )
          .where('c.occurred_at', '>=', request.since)
          .where('c.occurred_at', '<', request.until);
        const { after } = request;
        const at = occurredAt(this.handle.dialect);
        if (after) {
          query = query.where((eb) =>
            eb.or([eb(at, '>', after.createdAt), eb.and([eb(at, '=', after.createdAt), eb('c.event_id', '>', after.id)])]),
          );
        }
        const rows = await query.orderBy(at).orderBy('c.event_id').limit(request.limit + 1).execute();
        const queued = rows.slice(0, request.limit);
        if (queued.length > 0) {
          await db
            .updateTable('webhook_deliveries')
            // Waiting again, so not delivered (GET /api/events?undelivered_to= lists it until it is).
            .set({ attempts: 0, next_attempt_at: request.now, given_up_at: null, delivered_at: null, lease_until: null, lease_owner: null })
            .where('id', 'in', queued.map((row) => row.id))
            .execute();
        }
        const last = queued[queued.length - 1];
        const position: ListPosition | undefined = last && { createdAt: toIso(last.occurred_at), id: last.event_id };
        return { kind: 'queued', queued: queued.length, last: position, more: rows.length > request.limit };
      },
      (result) =>
        result.kind === 'queued' && result.queued > 0
          ? { sellerId, mode, action: 'webhook_delivery.resent_failed', targetId: endpointId }
          : undefined,
    );
  }
}

function findRow(db: Kysely<Database>, { sellerId, mode }: Tenant, id: string): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .where('mode', '=', mode)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * An event's time as its cursor names it: whole milliseconds. PostgreSQL's delete trigger stamps
 * `clock_timestamp()` (microseconds), so its positions are compared and ordered truncated, as they are shown.
 */
function occurredAt(dialect: DatabaseHandle['dialect']): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`date_trunc('milliseconds', c.occurred_at)` : sql<string>`c.occurred_at`;
}

/** What an endpoint edit's audit row compares, in the API's names (never the secret, which an edit cannot touch). */
const AUDITED_ENDPOINT_FIELDS = ['url', 'events', 'description', 'api_version'];

function auditedFields(row: EndpointRow) {
  return { url: row.url, events: fromJson<CustomerEventType[]>(row.event_types), description: row.description, api_version: row.api_version };
}
