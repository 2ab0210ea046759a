import { Migrator, sql, type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DatabaseHandle, DialectName } from './connect.js';
import { createHeadTriggers, dropHeadTriggers } from './delivery-heads.js';
import { createCountTriggers, dropCountTriggers } from './customer-count-triggers.js';
import { createOutboxTriggers, dropOutboxTriggers } from './outbox-triggers.js';
import { writeServerSettings } from './server-settings.js';
import { SQLITE_TRACE_FUNCTION } from '../observability/trace-context.js';

/** Column types that differ between the two databases; everything else is shared. */
function columnTypes(dialect: DialectName) {
  return dialect === 'postgres'
    ? ({ id: 'uuid', timestamp: 'timestamptz', json: 'jsonb' } as const)
    : ({ id: 'text', timestamp: 'text', json: 'text' } as const);
}

/** The one set of migrations, run at start-up against SQLite and PostgreSQL alike. */
export function migrations(dialect: DialectName): Record<string, Migration> {
  const t = columnTypes(dialect);
  return {
    '001_initial': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('sellers')
          .addColumn('id', t.id, (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('plan', 'text', (c) => c.notNull())
          .addColumn('customer_limit', 'integer')
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('api_keys')
          .addColumn('id', t.id, (c) => c.primaryKey())
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('key_hash', 'text', (c) => c.notNull())
          .addColumn('prefix', 'text', (c) => c.notNull())
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addColumn('last_used_at', t.timestamp)
          .addColumn('expires_at', t.timestamp)
          .addColumn('revoked_at', t.timestamp)
          .execute();
        await db.schema.createIndex('api_keys_key_hash_unique').unique().on('api_keys').column('key_hash').execute();
        await db.schema.createIndex('api_keys_seller_id').on('api_keys').column('seller_id').execute();

        await db.schema
          .createTable('customers')
          .addColumn('id', t.id, (c) => c.primaryKey())
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('email_normalized', 'text', (c) => c.notNull())
          .addColumn('company_name', 'text')
          .addColumn('legal_entity', 'text')
          .addColumn('language', 'text')
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('address_data', t.json)
          .addColumn('postal_redirect_address', t.json)
          .addColumn('source', 'text', (c) => c.notNull())
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addColumn('updated_at', t.timestamp, (c) => c.notNull())
          .execute();
        // Email uniqueness per seller is the database's job, so no race between two requests can break it.
        await db.schema
          .createIndex('customers_seller_email_unique')
          .unique()
          .on('customers')
          .columns(['seller_id', 'email_normalized'])
          .execute();

        await db.schema
          .createTable('idempotency_keys')
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('customer_id', t.id, (c) => c.notNull())
          .addColumn('response', t.json, (c) => c.notNull())
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addColumn('expires_at', t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_pk', ['seller_id', 'key'])
          .execute();
        await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
      },
      async down(db: Kysely<any>) {
        for (const table of ['idempotency_keys', 'customers', 'api_keys', 'sellers']) {
          await db.schema.dropTable(table).ifExists().execute();
        }
      },
    },
    // The seller dashboard: one-time sign-in links and sessions, both stored as hashes only.
    '002_dashboard': {
      async up(db: Kysely<any>) {
        for (const [table, key] of [['login_links', 'token_hash'], ['dashboard_sessions', 'id_hash']] as const) {
          await db.schema
            .createTable(table)
            .addColumn(key, 'text', (c) => c.primaryKey())
            .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
            .addColumn('created_at', t.timestamp, (c) => c.notNull())
            .addColumn('expires_at', t.timestamp, (c) => c.notNull())
            .execute();
          await db.schema.createIndex(`${table}_expires_at`).on(table).column('expires_at').execute();
        }
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('dashboard_sessions').ifExists().execute();
        await db.schema.dropTable('login_links').ifExists().execute();
      },
    },
    // Each seller's number of customers, kept by triggers in the transaction of every insert and delete, so the
    // plan-limit check of a create reads one row instead of counting the seller's customers (O(n) per create:
    // 1.5 ms at 14,000 customers, profiled).
    '003_customer_counts': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('seller_customer_counts')
          .addColumn('seller_id', t.id, (c) => c.primaryKey().references('sellers.id').onDelete('cascade'))
          .addColumn('count', 'integer', (c) => c.notNull())
          .execute();
        await sql`insert into seller_customer_counts (seller_id, count)
          select seller_id, count(*) from customers group by seller_id`.execute(db);
        await createSellerCountTriggers(db, dialect);
      },
      async down(db: Kysely<any>) {
        await sql`drop trigger if exists customers_count_insert${sql.raw(dialect === 'postgres' ? ' on customers' : '')}`.execute(db);
        await sql`drop trigger if exists customers_count_delete${sql.raw(dialect === 'postgres' ? ' on customers' : '')}`.execute(db);
        if (dialect === 'postgres') {
          await sql`drop function if exists customers_count_insert()`.execute(db);
          await sql`drop function if exists customers_count_delete()`.execute(db);
        }
        await db.schema.dropTable('seller_customer_counts').ifExists().execute();
      },
    },
    // GET /api/customers walks a seller's customers newest first by (created_at, id): one index range per page,
    // the same cost at 1,000 customers as at 1,000,000.
    '004_customer_list_index': {
      async up(db: Kysely<any>) {
        await db.schema
          .createIndex('customers_seller_created_id')
          .on('customers')
          .columns(['seller_id', 'created_at', 'id'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('customers_seller_created_id').ifExists().execute();
      },
    },
    // A seller's own API rate limit (requests per second; 0: not limited); null means the server's default.
    '005_seller_rate_limit': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('sellers').addColumn('rate_limit', 'integer').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('sellers').dropColumn('rate_limit').execute();
      },
    },
    // PostgreSQL: a create's whole decision in one server-side function, so it is one round trip (see
    // postgres-writes.ts). SQLite runs the same steps in-process, where a statement costs microseconds.
    '006_postgres_create_function': {
      async up(db: Kysely<any>) {
        if (dialect === 'postgres') await sql.raw(CREATE_CUSTOMER_FUNCTION_V1).execute(db);
      },
      async down(db: Kysely<any>) {
        if (dialect === 'postgres') await sql`drop function if exists customers_create`.execute(db);
      },
    },
    // Change events (webhooks): the seller's endpoints, the outbox of customer changes written by triggers in the
    // transaction of every change (outbox-triggers.ts), and one delivery per change and subscribed endpoint.
    '007_webhooks': {
      async up(db: Kysely<any>) {
        // PostgreSQL's bigint comes back as a string; the server reads these ids through Number().
        const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
        const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
        await db.schema
          .createTable('webhook_endpoints')
          .addColumn('id', t.id, (c) => c.primaryKey())
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('url', 'text', (c) => c.notNull())
          // A JSON array of event types.
          .addColumn('event_types', t.json, (c) => c.notNull())
          // AES-256-GCM, see webhooks/secret-box.ts; never the plain secret.
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('secret_key_id', 'text', (c) => c.notNull())
          .addColumn('previous_secret', 'text')
          .addColumn('previous_secret_expires_at', t.timestamp)
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addColumn('failing_since', t.timestamp)
          .execute();
        await db.schema.createIndex('webhook_endpoints_seller_id').on('webhook_endpoints').column('seller_id').execute();

        // The last sequence number of each customer, kept after its delete (no foreign key).
        await db.schema
          .createTable('customer_event_sequences')
          .addColumn('customer_id', t.id, (c) => c.primaryKey())
          .addColumn('sequence', 'integer', (c) => c.notNull())
          .execute();

        await db.schema
          .createTable('customer_changes')
          .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('event_id', 'text', (c) => c.notNull().unique())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('customer_id', t.id, (c) => c.notNull())
          .addColumn('sequence', 'integer', (c) => c.notNull())
          .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
          .addColumn('customer', t.json, (c) => c.notNull())
          .addColumn('previous', t.json)
          .execute();
        await db.schema
          .createIndex('customer_changes_customer_sequence')
          .unique()
          .on('customer_changes')
          .columns(['customer_id', 'sequence'])
          .execute();
        await db.schema.createIndex('customer_changes_seller_id').on('customer_changes').columns(['seller_id', 'id']).execute();

        await db.schema
          .createTable('webhook_deliveries')
          .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('change_id', bigint, (c) => c.notNull().references('customer_changes.id').onDelete('cascade'))
          .addColumn('endpoint_id', t.id, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
          .addColumn('seller_id', t.id, (c) => c.notNull())
          .addColumn('customer_id', t.id, (c) => c.notNull())
          .addColumn('sequence', 'integer', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          // Null once there is nothing left to do (delivered or given up).
          .addColumn('next_attempt_at', t.timestamp)
          // A worker's claim: other workers leave the row alone until then (renewed while the attempt runs).
          .addColumn('lease_until', t.timestamp)
          .addColumn('lease_owner', 'text')
          .addColumn('last_attempt_at', t.timestamp)
          .addColumn('last_status', 'integer')
          .addColumn('last_error', 'text')
          .addColumn('delivered_at', t.timestamp)
          .addColumn('given_up_at', t.timestamp)
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_endpoint_change')
          .unique()
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'change_id'])
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_due')
          .on('webhook_deliveries')
          .column('next_attempt_at')
          .where(sql.ref('next_attempt_at'), 'is not', null)
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_order')
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'customer_id', 'sequence'])
          .execute();
        await db.schema.createIndex('webhook_deliveries_change').on('webhook_deliveries').column('change_id').execute();
        // The outbox triggers, first created here, are 008's since they record only what somebody subscribed to.
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        for (const table of ['webhook_deliveries', 'customer_changes', 'customer_event_sequences', 'webhook_endpoints']) {
          await db.schema.dropTable(table).ifExists().execute();
        }
      },
    },
    '008_outbox_when_subscribed': {
      // Changes are recorded only for subscribed endpoints, so the change number moves onto the customer's row
      // (counted for every change, recorded or not) and its own table goes. Databases made before this version
      // have 007's triggers, which are replaced; their numbers carry over.
      async up(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await db.schema
          .alterTable('customers')
          .addColumn('event_sequence', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        await sql`update customers set event_sequence = s.sequence from customer_event_sequences s
          where s.customer_id = customers.id`.execute(db);
        await db.schema.dropTable('customer_event_sequences').execute();
        await createOutboxTriggers(db, dialect, { skipDisabled: false });
      },
      async down(db: Kysely<any>) {
        // Back to 007's tables; changes are no longer recorded until 008 runs again.
        await dropOutboxTriggers(db, dialect);
        await db.schema
          .createTable('customer_event_sequences')
          .addColumn('customer_id', t.id, (c) => c.primaryKey())
          .addColumn('sequence', 'integer', (c) => c.notNull())
          .execute();
        await sql`insert into customer_event_sequences (customer_id, sequence)
          select id, event_sequence from customers`.execute(db);
        await db.schema.alterTable('customers').dropColumn('event_sequence').execute();
      },
    },
    // Fair delivery (issue 23): a seller's own cap on webhook endpoints; an endpoint's health (timeouts in a row,
    // failing attempts since when, disabled since when); an index that counts the attempts in flight (leased
    // rows) per seller and endpoint for every process's claim; triggers that skip disabled endpoints.
    '009_fair_delivery': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('sellers').addColumn('webhook_endpoint_limit', 'integer').execute();
        await db.schema
          .alterTable('webhook_endpoints')
          .addColumn('timeouts_in_a_row', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('webhook_endpoints').addColumn('attempts_failing_since', t.timestamp).execute();
        await db.schema.alterTable('webhook_endpoints').addColumn('disabled_at', t.timestamp).execute();
        await db.schema
          .createIndex('webhook_deliveries_leased')
          .on('webhook_deliveries')
          .columns(['seller_id', 'endpoint_id', 'lease_until'])
          .where(sql.ref('lease_until'), 'is not', null)
          .execute();
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true });
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: false });
        await db.schema.dropIndex('webhook_deliveries_leased').ifExists().execute();
        for (const column of ['disabled_at', 'attempts_failing_since', 'timeouts_in_a_row']) {
          await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
        }
        await db.schema.alterTable('sellers').dropColumn('webhook_endpoint_limit').execute();
      },
    },
    // The audit log (audit/audit-log.ts): one row per security-relevant change, written in the change's transaction.
    // No foreign key to sellers: the history outlives what it describes.
    '010_audit_log': {
      async up(db: Kysely<any>) {
        const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
        await db.schema
          .createTable('audit_log')
          .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
          .addColumn('seller_id', t.id, (c) => c.notNull())
          .addColumn('actor_type', 'text', (c) => c.notNull())
          .addColumn('actor_id', 'text')
          .addColumn('actor_label', 'text')
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('target_id', 'text')
          .addColumn('request_id', 'text')
          .addColumn('client_address', 'text')
          .execute();
        await db.schema.createIndex('audit_log_seller_id').on('audit_log').columns(['seller_id', 'id']).execute();
        await db.schema.createIndex('audit_log_occurred_at').on('audit_log').column('occurred_at').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('audit_log').ifExists().execute();
      },
    },
    // Traces from a request to the webhooks it caused: each outbox row keeps the W3C traceparent of the request
    // span that wrote it (null when untraced), taken by the database from the writing transaction
    // (observability/trace-context.ts): PostgreSQL reads a transaction-local setting in the column's default;
    // on SQLite a TEMP trigger of the server's own connection fills it in (installSqliteTraceTrigger, below), so
    // other connections (the sqlite3 shell, bulk loads) need nothing of the server's.
    '011_change_trace_context': {
      async up(db: Kysely<any>) {
        if (dialect === 'postgres') {
          await sql`alter table customer_changes add column trace_context text
            default nullif(current_setting('customers.trace_context', true), '')`.execute(db);
          return;
        }
        await db.schema.alterTable('customer_changes').addColumn('trace_context', 'text').execute();
      },
      async down(db: Kysely<any>) {
        if (dialect === 'sqlite') await sql`drop trigger if exists temp.customer_changes_trace_context`.execute(db);
        await db.schema.alterTable('customer_changes').dropColumn('trace_context').execute();
      },
    },
    // Dated API versions: each seller is pinned to one (a request without `Customers-Version` gets it). Sellers
    // that exist already are pinned to the version that was the API's when this migration was written.
    '012_api_versions': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('sellers').addColumn('api_version', 'text').execute();
        await db.updateTable('sellers').set({ api_version: '2026-11-26' }).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('sellers').dropColumn('api_version').execute();
      },
    },
    // Each webhook endpoint is pinned to a version too (its events are rendered in it); those that exist get their
    // seller's.
    '013_webhook_endpoint_api_version': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('webhook_endpoints').addColumn('api_version', 'text').execute();
        await sql`update webhook_endpoints set api_version =
          (select s.api_version from sellers s where s.id = webhook_endpoints.seller_id)`.execute(db);
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('webhook_endpoints').dropColumn('api_version').execute();
      },
    },
    // Every delivery attempt kept (issue 29): when, how long, the receiver's status or a plain-language failure
    // (webhooks/attempt-failure.ts), the first 2 KiB of its answer and the signature sent. Pruned with its delivery
    // (which goes with its event, prune-outbox.ts, or its endpoint): `on delete cascade`. `endpoint_id` and
    // its index answer an endpoint's success rate over a window without touching its deliveries.
    '014_delivery_attempts': {
      async up(db: Kysely<any>) {
        const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
        const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
        await db.schema
          .createTable('webhook_delivery_attempts')
          .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('delivery_id', bigint, (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
          .addColumn('endpoint_id', t.id, (c) => c.notNull())
          .addColumn('attempt', 'integer', (c) => c.notNull())
          .addColumn('attempted_at', t.timestamp, (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('status_code', 'integer')
          .addColumn('error', 'text')
          .addColumn('response_body', 'text')
          .addColumn('signature', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('webhook_delivery_attempts_delivery').on('webhook_delivery_attempts').columns(['delivery_id', 'id']).execute();
        await db.schema
          .createIndex('webhook_delivery_attempts_endpoint_time')
          .on('webhook_delivery_attempts')
          .columns(['endpoint_id', 'attempted_at'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('webhook_delivery_attempts').ifExists().execute();
      },
    },
    // A seller's own note on each webhook endpoint (issue 29: edited on the endpoint page); '' when none.
    '015_webhook_endpoint_description': {
      async up(db: Kysely<any>) {
        await db.schema
          .alterTable('webhook_endpoints')
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('webhook_endpoints').dropColumn('description').execute();
      },
    },
    // Webhook endpoints and events in the public API (issue 37): idempotent endpoint creates, and the seller's
    // events newest first (GET /api/events) through an index in that order.
    '016_public_webhook_api': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('webhook_endpoint_idempotency_keys')
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('endpoint_id', t.id, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
          .addColumn('expires_at', t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint('webhook_endpoint_idempotency_keys_pk', ['seller_id', 'key'])
          .execute();
        await db.schema
          .createIndex('customer_changes_seller_time')
          .on('customer_changes')
          .columns(['seller_id', 'occurred_at', 'event_id'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('customer_changes_seller_time').ifExists().execute();
        await db.schema.dropTable('webhook_endpoint_idempotency_keys').ifExists().execute();
      },
    },
    // A seller's own cap on its unexpired API keys (issue 36); null: the server's default (dashboard/key-limit.ts).
    // The key list's pages read through (seller_id, created_at, id).
    '017_seller_key_limit': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('sellers').addColumn('key_limit', 'integer').execute();
        await db.schema.createIndex('api_keys_seller_created').on('api_keys').columns(['seller_id', 'created_at', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('api_keys_seller_created').ifExists().execute();
        await db.schema.alterTable('sellers').dropColumn('key_limit').execute();
      },
    },
    // Claims that cost what they take, not what waits (issue 36, db/delivery-heads.ts): one queue head per endpoint
    // with deliveries, kept by triggers; an index that gives an endpoint's next due deliveries in order, and one
    // that finds a customer's earliest delivery still waiting for its first attempt (per-customer order).
    '018_delivery_queue_heads': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('webhook_delivery_heads')
          .addColumn('endpoint_id', t.id, (c) => c.primaryKey().references('webhook_endpoints.id').onDelete('cascade'))
          .addColumn('seller_id', t.id, (c) => c.notNull())
          .addColumn('due_at', t.timestamp)
          .addColumn('wakes', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema
          .createIndex('webhook_delivery_heads_due')
          .on('webhook_delivery_heads')
          .columns(['due_at', 'endpoint_id'])
          .where(sql.ref('due_at'), 'is not', null)
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_endpoint_due')
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'next_attempt_at', 'id'])
          .where(sql.ref('next_attempt_at'), 'is not', null)
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_first_attempt')
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'customer_id', 'sequence'])
          .where(sql<boolean>`attempts = 0 and next_attempt_at is not null`)
          .execute();
        // "Resend all failed since" reads one page of these (webhooks/endpoint-edits.ts).
        await db.schema
          .createIndex('webhook_deliveries_failed')
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'created_at', 'id'])
          .where(sql<boolean>`next_attempt_at is null and delivered_at is null`)
          .execute();
        await sql`insert into webhook_delivery_heads (endpoint_id, seller_id, due_at, wakes)
          select endpoint_id, seller_id, min(next_attempt_at), 0 from webhook_deliveries
          where next_attempt_at is not null group by endpoint_id, seller_id`.execute(db);
        await createHeadTriggers(db, dialect);
      },
      async down(db: Kysely<any>) {
        await dropHeadTriggers(db, dialect);
        await db.schema.dropIndex('webhook_deliveries_failed').ifExists().execute();
        await db.schema.dropIndex('webhook_deliveries_first_attempt').ifExists().execute();
        await db.schema.dropIndex('webhook_deliveries_endpoint_due').ifExists().execute();
        await db.schema.dropTable('webhook_delivery_heads').ifExists().execute();
      },
    },
    // Key kinds (issue 38): a key's mode (live or test data) and, for a restricted key (rk_), the scopes granted to
    // it as a JSON array of names; null is a secret key (sk_), which holds every scope. Existing keys are live
    // secret keys, as their sk_live_ prefix says. The key cap counts each mode through (seller_id, mode, expires_at).
    '019_key_kinds': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('api_keys').addColumn('mode', 'text', (c) => c.notNull().defaultTo('live')).execute();
        await db.schema.alterTable('api_keys').addColumn('scopes', 'text').execute();
        await db.schema.createIndex('api_keys_seller_mode').on('api_keys').columns(['seller_id', 'mode', 'expires_at']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('api_keys_seller_mode').ifExists().execute();
        await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
        await db.schema.alterTable('api_keys').dropColumn('mode').execute();
      },
    },
    // Test mode (issue 38), the schema: every row a test key can make carries its mode ('live' for all that exists),
    // and every uniqueness, count and list index starts with (seller_id, mode), so test data and live data never
    // meet: email uniqueness, the plan-limit count (one row per seller and mode), idempotency keys, endpoints, the
    // events list. The audit log says which mode a change was made in; a seller may pin test mode to its own API
    // version (null: the live pin).
    '020_test_mode': {
      async up(db: Kysely<any>) {
        const mode = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('live');
        for (const table of ['customers', 'webhook_endpoints', 'customer_changes', 'audit_log']) {
          await db.schema.alterTable(table).addColumn('mode', 'text', mode).execute();
        }
        await db.schema.alterTable('sellers').addColumn('test_api_version', 'text').execute();
        await db.schema.dropIndex('customers_seller_email_unique').execute();
        await db.schema.createIndex('customers_tenant_email_unique').unique().on('customers').columns(['seller_id', 'mode', 'email_normalized']).execute();
        await db.schema.dropIndex('customers_seller_created_id').execute();
        await db.schema.createIndex('customers_tenant_created_id').on('customers').columns(['seller_id', 'mode', 'created_at', 'id']).execute();
        await db.schema.createIndex('webhook_endpoints_tenant').on('webhook_endpoints').columns(['seller_id', 'mode', 'created_at', 'id']).execute();
        await db.schema.dropIndex('customer_changes_seller_time').execute();
        await db.schema.createIndex('customer_changes_tenant_time').on('customer_changes').columns(['seller_id', 'mode', 'occurred_at', 'event_id']).execute();

        // The plan-limit count, per seller and mode (kept by 021's triggers).
        await db.schema
          .createTable('customer_counts')
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('mode', 'text', (c) => c.notNull())
          .addColumn('count', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('customer_counts_pk', ['seller_id', 'mode'])
          .execute();
        await sql`insert into customer_counts (seller_id, mode, count) select seller_id, 'live', count from seller_customer_counts`.execute(db);

        // Idempotency keys, per seller and mode: their primary keys gain the mode (a copy, as SQLite cannot alter
        // a primary key; the rows are a day's worth at most).
        await db.schema
          .createTable('idempotency_keys_by_mode')
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('mode', 'text', mode)
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('customer_id', t.id, (c) => c.notNull())
          .addColumn('response', t.json, (c) => c.notNull())
          .addColumn('created_at', t.timestamp, (c) => c.notNull())
          .addColumn('expires_at', t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint('idempotency_keys_tenant_pk', ['seller_id', 'mode', 'key'])
          .execute();
        await sql`insert into idempotency_keys_by_mode (seller_id, mode, key, fingerprint, customer_id, response, created_at, expires_at)
          select seller_id, 'live', key, fingerprint, customer_id, response, created_at, expires_at from idempotency_keys`.execute(db);
        await db.schema.dropTable('idempotency_keys').execute();
        await db.schema.alterTable('idempotency_keys_by_mode').renameTo('idempotency_keys').execute();
        await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();

        await db.schema
          .createTable('endpoint_idempotency_keys_by_mode')
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('mode', 'text', mode)
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('endpoint_id', t.id, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
          .addColumn('expires_at', t.timestamp, (c) => c.notNull())
          .addPrimaryKeyConstraint('webhook_endpoint_idempotency_keys_tenant_pk', ['seller_id', 'mode', 'key'])
          .execute();
        await sql`insert into endpoint_idempotency_keys_by_mode (seller_id, mode, key, fingerprint, endpoint_id, expires_at)
          select seller_id, 'live', key, fingerprint, endpoint_id, expires_at from webhook_endpoint_idempotency_keys`.execute(db);
        await db.schema.dropTable('webhook_endpoint_idempotency_keys').execute();
        await db.schema.alterTable('endpoint_idempotency_keys_by_mode').renameTo('webhook_endpoint_idempotency_keys').execute();
      },
      async down(db: Kysely<any>) {
        // Back to one mode: the test data goes (it has no place in the old schema), live data stays as it was.
        await db.deleteFrom('webhook_endpoints').where('mode', '=', 'test').execute();
        await db.deleteFrom('customer_changes').where('mode', '=', 'test').execute();
        await db.deleteFrom('customers').where('mode', '=', 'test').execute();
        for (const [table, pk, references] of [
          ['idempotency_keys', 'idempotency_keys_pk', null],
          ['webhook_endpoint_idempotency_keys', 'webhook_endpoint_idempotency_keys_pk', 'endpoint'],
        ] as const) {
          const copy = `${table}_single_mode`;
          let create = db.schema
            .createTable(copy)
            .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
            .addColumn('key', 'text', (c) => c.notNull())
            .addColumn('fingerprint', 'text', (c) => c.notNull());
          create = references
            ? create
                .addColumn('endpoint_id', t.id, (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
                .addColumn('expires_at', t.timestamp, (c) => c.notNull())
            : create
                .addColumn('customer_id', t.id, (c) => c.notNull())
                .addColumn('response', t.json, (c) => c.notNull())
                .addColumn('created_at', t.timestamp, (c) => c.notNull())
                .addColumn('expires_at', t.timestamp, (c) => c.notNull());
          await create.addPrimaryKeyConstraint(pk, ['seller_id', 'key']).execute();
          const columns = references
            ? 'seller_id, key, fingerprint, endpoint_id, expires_at'
            : 'seller_id, key, fingerprint, customer_id, response, created_at, expires_at';
          await sql.raw(`insert into ${copy} (${columns}) select ${columns} from ${table} where mode = 'live'`).execute(db);
          await db.schema.dropTable(table).execute();
          await db.schema.alterTable(copy).renameTo(table).execute();
        }
        await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
        await db.schema.dropTable('customer_counts').execute();
        await db.schema.dropIndex('customer_changes_tenant_time').execute();
        await db.schema.createIndex('customer_changes_seller_time').on('customer_changes').columns(['seller_id', 'occurred_at', 'event_id']).execute();
        await db.schema.dropIndex('webhook_endpoints_tenant').execute();
        await db.schema.dropIndex('customers_tenant_created_id').execute();
        await db.schema.createIndex('customers_seller_created_id').on('customers').columns(['seller_id', 'created_at', 'id']).execute();
        await db.schema.dropIndex('customers_tenant_email_unique').execute();
        await db.schema.createIndex('customers_seller_email_unique').unique().on('customers').columns(['seller_id', 'email_normalized']).execute();
        await db.schema.alterTable('sellers').dropColumn('test_api_version').execute();
        for (const table of ['customers', 'webhook_endpoints', 'customer_changes', 'audit_log']) {
          await db.schema.alterTable(table).dropColumn('mode').execute();
        }
      },
    },
    // Test mode, the writers: the plan-limit count by mode, the outbox triggers that record a change for its own
    // mode's endpoints only (with the mode in the event), and PostgreSQL's create function deciding per mode.
    '021_test_mode_writers': {
      async up(db: Kysely<any>) {
        const postgres = dialect === 'postgres';
        await dropCountTriggers(db, dialect);
        await db.schema.dropTable('seller_customer_counts').execute();
        await createCountTriggers(db, dialect);
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true });
        if (postgres) {
          await sql`drop function if exists customers_create`.execute(db);
          await sql.raw(CREATE_CUSTOMER_FUNCTION).execute(db);
        }
      },
      async down(db: Kysely<any>) {
        const postgres = dialect === 'postgres';
        if (postgres) {
          await sql`drop function if exists customers_create`.execute(db);
          await sql.raw(CREATE_CUSTOMER_FUNCTION_V1).execute(db);
        }
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: false });
        await dropCountTriggers(db, dialect);
        await db.schema
          .createTable('seller_customer_counts')
          .addColumn('seller_id', t.id, (c) => c.primaryKey().references('sellers.id').onDelete('cascade'))
          .addColumn('count', 'integer', (c) => c.notNull())
          .execute();
        await sql`insert into seller_customer_counts (seller_id, count)
          select seller_id, count from customer_counts where mode = 'live'`.execute(db);
        await createSellerCountTriggers(db, dialect);
      },
    },
    // Request logs (issue 39, http/request-logs/): every request made with a seller's key, written in batches off
    // the request's path. Pages read newest first through (seller_id, id); a request id finds its row through
    // (seller_id, request_id); retention deletes through occurred_at. `mode` is the key's (live until test keys).
    '022_request_logs': {
      async up(db: Kysely<any>) {
        const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
        await db.schema
          .createTable('request_logs')
          .addColumn('id', serial, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
          .addColumn('seller_id', t.id, (c) => c.notNull().references('sellers.id').onDelete('cascade'))
          .addColumn('occurred_at', t.timestamp, (c) => c.notNull())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('duration_ms', 'real', (c) => c.notNull())
          .addColumn('key_id', t.id)
          .addColumn('key_name', 'text')
          .addColumn('key_prefix', 'text')
          .addColumn('request_id', 'text', (c) => c.notNull())
          .addColumn('api_version', 'text')
          .addColumn('mode', 'text', (c) => c.notNull().defaultTo('live'))
          .addColumn('request_body', 'text')
          .addColumn('error_body', 'text')
          .execute();
        await db.schema.createIndex('request_logs_seller_id').on('request_logs').columns(['seller_id', 'id']).execute();
        await db.schema.createIndex('request_logs_seller_request').on('request_logs').columns(['seller_id', 'request_id']).execute();
        await db.schema.createIndex('request_logs_occurred_at').on('request_logs').columns(['occurred_at', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('request_logs').ifExists().execute();
      },
    },
    // The dashboard's events page (issue 39): an event found by the beginning of its id, and a customer's events,
    // each through an index within the seller. Changes are recorded while only a disabled endpoint is subscribed
    // too (no delivery for it): the page shows them `skipped` there, and they stay resendable once it is enabled.
    '023_event_search': {
      async up(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true });
        await db.schema.createIndex('customer_changes_seller_event').on('customer_changes').columns(['seller_id', 'event_id']).execute();
        await db.schema
          .createIndex('customer_changes_seller_customer')
          .on('customer_changes')
          .columns(['seller_id', 'customer_id', 'id'])
          .execute();
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true });
        await db.schema.dropIndex('customer_changes_seller_customer').ifExists().execute();
        await db.schema.dropIndex('customer_changes_seller_event').ifExists().execute();
      },
    },
    // A seller's waiting deliveries have a cap (issue 36, webhooks/delivery-caps.ts): each queue head counts its
    // endpoint's waiting deliveries (kept by the head triggers, which now also see deletes), the outbox triggers
    // read the seller's heads before a fan-out and write deliveries beyond the cap as skipped (never attempted,
    // not waiting, resendable), and the queue-depth gauge sums heads instead of counting rows.
    '024_waiting_delivery_cap': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('sellers').addColumn('waiting_delivery_limit', 'integer').execute();
        await db.schema.alterTable('webhook_delivery_heads').addColumn('waiting', 'integer', (c) => c.notNull().defaultTo(0)).execute();
        await db.schema.createIndex('webhook_delivery_heads_seller').on('webhook_delivery_heads').columns(['seller_id', 'endpoint_id']).execute();
        await dropHeadTriggers(db, dialect);
        await sql`insert into webhook_delivery_heads (endpoint_id, seller_id, due_at, wakes, waiting)
          select endpoint_id, seller_id, min(next_attempt_at), 0, count(*) from webhook_deliveries
          where next_attempt_at is not null group by endpoint_id, seller_id
          on conflict (endpoint_id) do update set waiting = excluded.waiting`.execute(db);
        await createHeadTriggers(db, dialect, { counting: true });
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true, waitingCap: true });
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true });
        await dropHeadTriggers(db, dialect);
        await createHeadTriggers(db, dialect);
        await db.schema.dropIndex('webhook_delivery_heads_seller').ifExists().execute();
        await db.schema.alterTable('webhook_delivery_heads').dropColumn('waiting').execute();
        await db.schema.alterTable('sellers').dropColumn('waiting_delivery_limit').execute();
      },
    },
    '025_client_request_ids': {
      // request_id is the server's own id for a request; the id a client sent in X-Request-Id is kept beside it,
      // marked as the client's (a client can send anything, another's id included). Either finds the rows: the
      // request log through (seller_id, client_request_id), the audit log through its own two indexes.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('request_logs').addColumn('client_request_id', 'text').execute();
        await db.schema.alterTable('audit_log').addColumn('client_request_id', 'text').execute();
        await db.schema.createIndex('request_logs_seller_client_request').on('request_logs').columns(['seller_id', 'client_request_id']).execute();
        await db.schema.createIndex('audit_log_request').on('audit_log').column('request_id').execute();
        await db.schema.createIndex('audit_log_client_request').on('audit_log').column('client_request_id').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('audit_log_client_request').ifExists().execute();
        await db.schema.dropIndex('audit_log_request').ifExists().execute();
        await db.schema.dropIndex('request_logs_seller_client_request').ifExists().execute();
        await db.schema.alterTable('audit_log').dropColumn('client_request_id').execute();
        await db.schema.alterTable('request_logs').dropColumn('client_request_id').execute();
      },
    },
    '026_audit_details': {
      // What a row says beyond its action (audit/audit-details.ts, JSON text on both databases): a roll's two keys,
      // an update's changed fields before and after. Never a secret.
      async up(db: Kysely<any>) {
        await db.schema.alterTable('audit_log').addColumn('details', 'text').execute();
        // The oldest waiting delivery (due or in back-off) for the queue's age gauge (observability/metrics.ts).
        await db.schema
          .createIndex('webhook_deliveries_waiting')
          .on('webhook_deliveries')
          .column('id')
          .where(sql.ref('next_attempt_at'), 'is not', null)
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('webhook_deliveries_waiting').ifExists().execute();
        await db.schema.alterTable('audit_log').dropColumn('details').execute();
      },
    },
    // The test clock (issue 38, db/test-clocks.ts): per seller, how far test mode's time is ahead of the wall clock.
    // Read once per test-mode request (with the test key's expiry), never in live mode; it only grows.
    '027_test_clocks': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('test_clocks')
          .addColumn('seller_id', t.id, (c) => c.primaryKey().references('sellers.id').onDelete('cascade'))
          .addColumn('offset_ms', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('updated_at', t.timestamp, (c) => c.notNull())
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropTable('test_clocks').ifExists().execute();
      },
    },
    // Live deliveries never wait for test ones (issue 38): each delivery and queue head records its endpoint's mode,
    // claims count a seller's busy slots per mode (webhooks/claim-plan.ts) and the waiting cap counts per mode.
    '029_delivery_mode': {
      async up(db: Kysely<any>) {
        for (const table of ['webhook_deliveries', 'webhook_delivery_heads']) {
          await db.schema.alterTable(table).addColumn('mode', 'text', (c) => c.notNull().defaultTo('live')).execute();
          await sql`update ${sql.table(table)} set mode = 'test'
            where endpoint_id in (select e.id from webhook_endpoints e where e.mode = 'test')`.execute(db);
        }
        await dropHeadTriggers(db, dialect);
        await createHeadTriggers(db, dialect, { counting: true, byMode: true });
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true, waitingCap: true, modeOnDeliveries: true });
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true, waitingCap: true });
        await dropHeadTriggers(db, dialect);
        await createHeadTriggers(db, dialect, { counting: true });
        for (const table of ['webhook_delivery_heads', 'webhook_deliveries']) await db.schema.alterTable(table).dropColumn('mode').execute();
      },
    },
    // The delivery detail shows each attempt's response headers (issue 39): a bounded, redacted JSON object per
    // attempt (webhooks/response-headers.ts), null for attempts made before it or without an answer.
    '031_attempt_response_headers': {
      async up(db: Kysely<any>) {
        await db.schema.alterTable('webhook_delivery_attempts').addColumn('response_headers', 'text').execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.alterTable('webhook_delivery_attempts').dropColumn('response_headers').execute();
      },
    },
    // The dashboard's test/live switch (issue 38): the Activity page lists one mode's audit rows, newest first, a
    // page at a time; (seller_id, mode, id) reads a page of test rows without walking the seller's live ones.
    '033_audit_log_tenant': {
      async up(db: Kysely<any>) {
        await db.schema.createIndex('audit_log_tenant').on('audit_log').columns(['seller_id', 'mode', 'id']).execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('audit_log_tenant').ifExists().execute();
      },
    },
    // The waiting cap's default in one place (issue 36): the outbox triggers read it from a one-row server_settings
    // table that every migrate writes from WAITING_DELIVERY_LIMIT (db/server-settings.ts), instead of a literal
    // that only a migration could change. Triggers' options in full, as in 029, plus capFromSettings.
    '034_server_settings': {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('server_settings')
          .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
          .addColumn('waiting_delivery_limit', 'integer', (c) => c.notNull())
          .execute();
        await writeServerSettings(db);
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, {
          skipDisabled: true,
          byMode: true,
          recordForDisabled: true,
          waitingCap: true,
          modeOnDeliveries: true,
          capFromSettings: true,
        });
      },
      async down(db: Kysely<any>) {
        await dropOutboxTriggers(db, dialect);
        await createOutboxTriggers(db, dialect, { skipDisabled: true, byMode: true, recordForDisabled: true, waitingCap: true, modeOnDeliveries: true });
        await db.schema.dropTable('server_settings').ifExists().execute();
      },
    },
    // Request logs cost their rows' index writes (issue 39's bench rows): the (occurred_at, id) index goes (the
    // retention prune walks the primary key from the oldest row instead: rows are written in time order), and
    // the client's request id is indexed only where a client sent one (most rows have none). On PostgreSQL the
    // foreign key to sellers goes too: it ran a locking lookup of the seller per row, for a seller the request
    // had just authenticated (sellers are never deleted; SQLite cannot drop a column's constraint in place).
    '035_request_log_indexes': {
      async up(db: Kysely<any>) {
        if (dialect === 'postgres') await sql`alter table request_logs drop constraint if exists request_logs_seller_id_fkey`.execute(db);
        await db.schema.dropIndex('request_logs_occurred_at').ifExists().execute();
        await db.schema.dropIndex('request_logs_seller_client_request').ifExists().execute();
        await db.schema
          .createIndex('request_logs_seller_client_request')
          .on('request_logs')
          .columns(['seller_id', 'client_request_id'])
          .where(sql.ref('client_request_id'), 'is not', null)
          .execute();
      },
      async down(db: Kysely<any>) {
        await db.schema.dropIndex('request_logs_seller_client_request').ifExists().execute();
        await db.schema.createIndex('request_logs_seller_client_request').on('request_logs').columns(['seller_id', 'client_request_id']).execute();
        await db.schema.createIndex('request_logs_occurred_at').on('request_logs').columns(['occurred_at', 'id']).execute();
        if (dialect === 'postgres') {
          await sql`alter table request_logs add constraint request_logs_seller_id_fkey foreign key (seller_id) references sellers (id) on delete cascade`.execute(db);
        }
      },
    },
  };
}

/** Migration 003's count triggers (one count per seller), made again when 021 goes down. */
async function createSellerCountTriggers(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const increment = sql`insert into seller_customer_counts (seller_id, count) values (new.seller_id, 1)
    on conflict (seller_id) do update set count = seller_customer_counts.count + 1`;
  const decrement = sql`update seller_customer_counts set count = count - 1 where seller_id = old.seller_id`;
  if (dialect === 'postgres') {
    await sql`create function customers_count_insert() returns trigger language plpgsql as $$
      begin ${increment}; return null; end $$`.execute(db);
    await sql`create function customers_count_delete() returns trigger language plpgsql as $$
      begin ${decrement}; return null; end $$`.execute(db);
    await sql`create trigger customers_count_insert after insert on customers
      for each row execute function customers_count_insert()`.execute(db);
    await sql`create trigger customers_count_delete after delete on customers
      for each row execute function customers_count_delete()`.execute(db);
  } else {
    await sql`create trigger customers_count_insert after insert on customers begin ${increment}; end`.execute(db);
    await sql`create trigger customers_count_delete after delete on customers begin ${decrement}; end`.execute(db);
  }
}

/** The newest migration's name: a database whose newest applied one is older is not ready (http/health-routes.ts). */
export const LATEST_MIGRATION = Object.keys(migrations('sqlite')).sort().at(-1)!;

/**
 * One create, decided and written in one call (its own transaction when called alone), in the order of
 * SqlCustomerStore's SQLite path: the seller's row is locked (creates of one seller queue here, in every process),
 * an unexpired idempotency record is replayed, expired ones of the seller are dropped, the plan limit (403) is
 * checked before the email (409), then a real INSERT on customers (its triggers fire inside) and the idempotency
 * record. A concurrent duplicate email still ends at the unique index (23505), which the store maps to 409.
 * Returns one row: the outcome, and for a replay the stored answer and its fingerprint.
 */
const CREATE_CUSTOMER_FUNCTION_V1 = `
create function customers_create(
  p_id uuid, p_seller_id uuid, p_first_name text, p_last_name text, p_email text, p_email_normalized text,
  p_company_name text, p_legal_entity text, p_language text, p_status text, p_address_data jsonb,
  p_postal_redirect_address jsonb, p_source text, p_created_at timestamptz, p_updated_at timestamptz,
  p_customer_limit integer, p_idempotency_key text, p_fingerprint text, p_idempotency_expires_at timestamptz,
  p_response jsonb,
  out outcome text, out replay_response jsonb, out replay_fingerprint text
) language plpgsql as $$
declare
  v_record record;
begin
  perform 1 from sellers where id = p_seller_id for no key update;
  if p_idempotency_key is not null then
    select i.fingerprint, i.response, i.expires_at into v_record
      from idempotency_keys i where i.seller_id = p_seller_id and i.key = p_idempotency_key;
    if found and v_record.expires_at > p_created_at then
      outcome := 'idempotent_replay'; replay_response := v_record.response; replay_fingerprint := v_record.fingerprint;
      return;
    end if;
    delete from idempotency_keys where seller_id = p_seller_id and expires_at <= p_created_at;
  end if;
  if coalesce((select count from seller_customer_counts where seller_id = p_seller_id), 0) >= p_customer_limit then
    outcome := 'limit_reached';
    return;
  end if;
  if exists (select 1 from customers where seller_id = p_seller_id and email_normalized = p_email_normalized) then
    outcome := 'email_taken';
    return;
  end if;
  insert into customers (id, seller_id, first_name, last_name, email, email_normalized, company_name, legal_entity,
    language, status, address_data, postal_redirect_address, source, created_at, updated_at)
  values (p_id, p_seller_id, p_first_name, p_last_name, p_email, p_email_normalized, p_company_name, p_legal_entity,
    p_language, p_status, p_address_data, p_postal_redirect_address, p_source, p_created_at, p_updated_at);
  if p_idempotency_key is not null then
    insert into idempotency_keys (seller_id, key, fingerprint, customer_id, response, created_at, expires_at)
    values (p_seller_id, p_idempotency_key, p_fingerprint, p_id, p_response, p_created_at, p_idempotency_expires_at);
  end if;
  outcome := 'created';
end $$`;

/** Migration 021's: the same decision within the customer's mode (test data and live data never meet). */
const CREATE_CUSTOMER_FUNCTION = `
create function customers_create(
  p_id uuid, p_seller_id uuid, p_first_name text, p_last_name text, p_email text, p_email_normalized text,
  p_company_name text, p_legal_entity text, p_language text, p_status text, p_address_data jsonb,
  p_postal_redirect_address jsonb, p_source text, p_created_at timestamptz, p_updated_at timestamptz, p_mode text,
  p_customer_limit integer, p_idempotency_key text, p_fingerprint text, p_idempotency_expires_at timestamptz,
  p_response jsonb,
  out outcome text, out replay_response jsonb, out replay_fingerprint text
) language plpgsql as $$
declare
  v_record record;
begin
  perform 1 from sellers where id = p_seller_id for no key update;
  if p_idempotency_key is not null then
    select i.fingerprint, i.response, i.expires_at into v_record
      from idempotency_keys i where i.seller_id = p_seller_id and i.mode = p_mode and i.key = p_idempotency_key;
    if found and v_record.expires_at > p_created_at then
      outcome := 'idempotent_replay'; replay_response := v_record.response; replay_fingerprint := v_record.fingerprint;
      return;
    end if;
    delete from idempotency_keys where seller_id = p_seller_id and mode = p_mode and expires_at <= p_created_at;
  end if;
  if coalesce((select count from customer_counts where seller_id = p_seller_id and mode = p_mode), 0) >= p_customer_limit then
    outcome := 'limit_reached';
    return;
  end if;
  if exists (select 1 from customers where seller_id = p_seller_id and mode = p_mode and email_normalized = p_email_normalized) then
    outcome := 'email_taken';
    return;
  end if;
  insert into customers (id, seller_id, first_name, last_name, email, email_normalized, company_name, legal_entity,
    language, status, address_data, postal_redirect_address, source, created_at, updated_at, mode)
  values (p_id, p_seller_id, p_first_name, p_last_name, p_email, p_email_normalized, p_company_name, p_legal_entity,
    p_language, p_status, p_address_data, p_postal_redirect_address, p_source, p_created_at, p_updated_at, p_mode);
  if p_idempotency_key is not null then
    insert into idempotency_keys (seller_id, mode, key, fingerprint, customer_id, response, created_at, expires_at)
    values (p_seller_id, p_mode, p_idempotency_key, p_fingerprint, p_id, p_response, p_created_at, p_idempotency_expires_at);
  end if;
  outcome := 'created';
end $$`;

/**
 * Brings the schema up to date. Safe to run from several processes at once:
 * - PostgreSQL: Kysely's migrator takes its lock (a locked row) and runs each migration in a transaction.
 * - SQLite: Kysely's lock only covers one connection, so the whole run happens inside `BEGIN IMMEDIATE`,
 *   which holds the database write lock: other processes wait (busy_timeout), then find nothing to do.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.dialect) };
  if (handle.dialect === 'postgres') {
    // On one connection without the serving statement timeout (connect.ts): a migration may rewrite a large table.
    await handle.db.connection().execute(async (conn) => {
      await sql`set statement_timeout = 0`.execute(conn);
      try {
        report(await new Migrator({ db: conn, provider }).migrateToLatest());
        await writeServerSettings(conn);
      } finally {
        await sql`reset statement_timeout`.execute(conn).catch(() => {});
      }
    });
    return;
  }
  await handle.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      report(await new Migrator({ db: conn, provider }).migrateToLatest());
      // This build's defaults, in the migration's write lock (a start with another WAITING_DELIVERY_LIMIT applies it).
      await writeServerSettings(conn);
      await sql`commit`.execute(conn);
      await installSqliteTraceTrigger(conn);
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}

/**
 * SQLite: the outbox rows this connection writes get the writing request's trace context (migration 011). A TEMP
 * trigger lives with the connection only, and calls the function connect.ts registered on it.
 */
async function installSqliteTraceTrigger(conn: Kysely<any>): Promise<void> {
  await sql.raw(`create temp trigger if not exists customer_changes_trace_context after insert on main.customer_changes
    when ${SQLITE_TRACE_FUNCTION}() is not null
    begin update customer_changes set trace_context = ${SQLITE_TRACE_FUNCTION}() where id = new.id; end`).execute(conn);
}

function report({ error, results }: Awaited<ReturnType<Migrator['migrateToLatest']>>): void {
  if (!error) return;
  const failed = results?.find((r) => r.status === 'Error');
  const detail = error instanceof Error ? error.message : String(error);
  throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${detail}`);
}
