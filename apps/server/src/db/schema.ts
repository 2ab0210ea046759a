import type { ColumnType, RawBuilder } from 'kysely';

/**
 * Timestamps are `timestamptz` on PostgreSQL (read back as Date) and ISO 8601 text on SQLite; both accept an
 * ISO 8601 string on write. Addresses are `jsonb` on PostgreSQL (read back parsed) and JSON text on SQLite.
 */
export type Timestamp = ColumnType<Date | string, string, string>;
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;
export type JsonColumn = ColumnType<unknown, string | null, string | null>;

export interface SellersTable {
  id: string;
  name: string;
  plan: string;
  /** Per-seller override of the plan's customer limit; null means the plan decides. */
  customer_limit: number | null;
  /** Per-seller API rate limit in requests per second (0: not limited); null means the server's default. */
  rate_limit: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per-seller cap on webhook endpoints (migration 009); null means the server's default. */
  webhook_endpoint_limit: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per-seller cap on unexpired API keys (migration 016); null means the server's default. */
  key_limit: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per-seller cap on waiting webhook deliveries (migration 024); null means the server's default. */
  waiting_delivery_limit: ColumnType<number | null, number | null | undefined, number | null>;
  /** The API version the seller is pinned to (migration 012); null: the latest. */
  api_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** The version test mode is pinned to (migration 020); null: the live pin. */
  test_api_version: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  seller_id: string;
  name: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, shown in listings. */
  prefix: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** Which of the seller's data the key acts on (migration 019); 'live' for keys made before. */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, 'live' | 'test'>;
  /** A restricted key's granted scopes as a JSON array; null for a secret key (every scope). */
  scopes: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CustomersTable {
  id: string;
  seller_id: string;
  first_name: string;
  last_name: string;
  email: string;
  /** Lower-cased email behind the unique index (seller_id, email_normalized). */
  email_normalized: string;
  company_name: string | null;
  legal_entity: string | null;
  language: string | null;
  status: string;
  address_data: JsonColumn;
  postal_redirect_address: JsonColumn;
  source: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 'live' or 'test' (migration 020): test mode is a tenancy boundary, like the seller. */
  mode: string;
  /**
   * The customer's change number (webhooks' `data.sequence`): 1 on insert, one more with every update, which
   * must set it to `event_sequence + 1` (db/outbox-triggers.ts). Not part of the customer.
   */
  event_sequence: ColumnType<number, never, RawBuilder<number>>;
}

export interface IdempotencyKeysTable {
  seller_id: string;
  /** 'live' (the default) or 'test' (migration 020). */
  mode: ColumnType<string, string | undefined, string>;
  key: string;
  fingerprint: string;
  customer_id: string;
  /** The created customer as first returned, replayed on a retry. */
  response: JsonColumn;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A one-time dashboard sign-in link; deleted when used. */
export interface LoginLinksTable {
  /** SHA-256 hex of the link's token; the token itself is never stored. */
  token_hash: string;
  seller_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A signed-in dashboard session; deleted on sign-out. */
export interface DashboardSessionsTable {
  /** SHA-256 hex of the session id held in the browser's cookie. */
  id_hash: string;
  seller_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** Maintained by triggers on customers (migrations 003, 021), per seller and mode; read by the plan-limit check. */
export interface CustomerCountsTable {
  seller_id: string;
  mode: string;
  count: number;
}

/** Integer ids: bigserial on PostgreSQL (read back as a string), integer on SQLite. */
export type SerialId = ColumnType<number | string, never, never>;

/** A seller's webhook endpoint (migration 007). */
export interface WebhookEndpointsTable {
  id: string;
  seller_id: string;
  /** 'live' or 'test' (migration 020). */
  mode: ColumnType<string, string | undefined, never>;
  url: string;
  /** JSON array of the event types it receives. */
  event_types: JsonColumn;
  /** The signing secret sealed with AES-256-GCM (webhooks/secret-box.ts); never the plain secret. */
  secret: string;
  /** Which key sealed `secret` and `previous_secret` (the first 16 hex digits of its SHA-256). */
  secret_key_id: string;
  /** The secret before the last rotation, sealed; still signs until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  created_at: Timestamp;
  /** Set when a delivery to it was given up; cleared by the next successful delivery. */
  failing_since: NullableTimestamp;
  /** Attempts in a row that got no answer in time (migration 009): each halves its slots; an answer resets it. */
  timeouts_in_a_row: ColumnType<number, number | undefined, number>;
  /** The first failed attempt since its last success (migration 009); null while the last attempt succeeded. */
  attempts_failing_since: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** When it was disabled for failing too long (migration 009); null while enabled. */
  disabled_at: ColumnType<Date | string | null, string | null | undefined, string | null>;
  /** The API version its events are rendered in (migration 013); null only if its seller had none (the latest). */
  api_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** The seller's note on it (migration 015); '' when none. */
  description: ColumnType<string, string | undefined, string>;
}

/** An endpoint create's Idempotency-Key (migration 016): the same key and body within 24 hours answer it again. */
export interface WebhookEndpointIdempotencyKeysTable {
  seller_id: string;
  /** 'live' (the default) or 'test' (migration 020). */
  mode: ColumnType<string, string | undefined, string>;
  key: string;
  fingerprint: string;
  endpoint_id: string;
  expires_at: Timestamp;
}

/** The outbox: one row per change of a customer, written by triggers (db/outbox-triggers.ts). */
export interface CustomerChangesTable {
  id: SerialId;
  event_id: string;
  type: string;
  seller_id: string;
  /** The customer's mode (migration 020); written by the outbox triggers. */
  mode: ColumnType<string, string | undefined, never>;
  customer_id: string;
  sequence: number;
  occurred_at: Timestamp;
  /** The customers row after the change (before it, for a delete), as JSON. */
  customer: JsonColumn;
  /** For an update: the row before it. */
  previous: JsonColumn;
  /** The W3C traceparent of the request span that made the change (migration 011); null when untraced. */
  trace_context: ColumnType<string | null, never, never>;
}

/** One change to one endpoint: created by the outbox triggers, worked by the delivery worker. */
export interface WebhookDeliveriesTable {
  id: SerialId;
  change_id: ColumnType<number | string, number | string, number | string>;
  endpoint_id: string;
  seller_id: string;
  customer_id: string;
  sequence: number;
  attempts: number;
  next_attempt_at: NullableTimestamp;
  /** A worker's claim: others leave the row alone until `lease_until` (renewed while its attempt runs). */
  lease_until: NullableTimestamp;
  /** The claiming worker's id: only it records the attempt's outcome. */
  lease_owner: string | null;
  last_attempt_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  delivered_at: NullableTimestamp;
  given_up_at: NullableTimestamp;
  created_at: Timestamp;
  /** Its endpoint's (and change's) mode (migration 029): claims count busy slots per seller and mode. */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, never>;
}

/** An endpoint's place in the delivery queue (migration 016, db/delivery-heads.ts). */
export interface WebhookDeliveryHeadsTable {
  endpoint_id: string;
  seller_id: string;
  /** At or before this time the endpoint may have a delivery to claim; null when nothing waits. */
  due_at: NullableTimestamp;
  /** Bumped by every write: a claim moves `due_at` later only if none came since it read the head. */
  wakes: number;
  /** The endpoint's deliveries that wait (migration 024): kept by the triggers, read instead of counting rows. */
  waiting: ColumnType<number, number | undefined, number>;
  /** Its endpoint's mode (migration 029). */
  mode: ColumnType<'live' | 'test', 'live' | 'test' | undefined, never>;
}

/** One attempt to send a delivery (migration 014); deleted with its delivery. */
export interface WebhookDeliveryAttemptsTable {
  id: SerialId;
  delivery_id: ColumnType<number | string, number | string, number | string>;
  endpoint_id: string;
  /** 1 for the first attempt since the delivery was queued or last resent. */
  attempt: number;
  attempted_at: Timestamp;
  duration_ms: number;
  /** The receiver's HTTP status; null when none came. */
  status_code: number | null;
  /** Why no usable answer came, in plain language (webhooks/attempt-failure.ts); null when a status came. */
  error: string | null;
  /** The first 2 KiB of the receiver's answer. */
  response_body: string | null;
  /** The `webhook-signature` header as sent (signatures only, never a secret). */
  signature: string;
  /** The receiver's answer headers as JSON, bounded and redacted (migration 031, webhooks/response-headers.ts). */
  response_headers: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One request made with a seller's API key (migration 022, http/request-logs/). */
export interface RequestLogsTable {
  id: SerialId;
  seller_id: string;
  occurred_at: Timestamp;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  key_name: string | null;
  key_prefix: string | null;
  /** The server's own id for the request. */
  request_id: string;
  /** The caller's `X-Request-Id`, when it sent an acceptable one (migration 025). */
  client_request_id: ColumnType<string | null, string | null | undefined, never>;
  api_version: string | null;
  mode: ColumnType<string, string | undefined, string>;
  /** A write's JSON body with secret-like properties redacted; null otherwise. */
  request_body: string | null;
  /** A 4xx/5xx answer's JSON error body; null otherwise. */
  error_body: string | null;
}

/** One security-relevant change (migration 010, audit/audit-log.ts); never a secret, key or token. */
export interface AuditLogTable {
  id: SerialId;
  occurred_at: Timestamp;
  seller_id: string;
  /** cli, dashboard, api_key or server. */
  actor_type: string;
  /** A dashboard session's reference or an API key's id. */
  actor_id: string | null;
  /** An API key's display prefix. */
  actor_label: string | null;
  action: string;
  target_id: string | null;
  /** The server's own id for the request that made the change (null for the CLI). */
  request_id: string | null;
  /** The caller's `X-Request-Id`, when it sent an acceptable one (migration 025). */
  client_request_id: ColumnType<string | null, string | null | undefined, never>;
  /** A roll's keys, an update's changed fields before and after, as JSON (migration 026); never a secret. */
  details: ColumnType<string | null, string | null | undefined, never>;
  /** Null when the operator turned client addresses off. */
  client_address: string | null;
  /** 'test' for a change of test data (migration 020), else 'live'. */
  mode: ColumnType<string, string | undefined, never>;
}

export interface Database {
  sellers: SellersTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  idempotency_keys: IdempotencyKeysTable;
  login_links: LoginLinksTable;
  dashboard_sessions: DashboardSessionsTable;
  customer_counts: CustomerCountsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_endpoint_idempotency_keys: WebhookEndpointIdempotencyKeysTable;
  customer_changes: CustomerChangesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  webhook_delivery_heads: WebhookDeliveryHeadsTable;
  audit_log: AuditLogTable;
  request_logs: RequestLogsTable;
  test_clocks: TestClocksTable;
  server_settings: ServerSettingsTable;
}

/**
 * A seller's test clock (migration 027): how far test mode's time is ahead of the wall clock, in milliseconds.
 * No row: test mode runs on the wall clock. The offset only grows (db/test-clocks.ts).
 */
export interface TestClocksTable {
  seller_id: string;
  offset_ms: ColumnType<number, number, number>;
  updated_at: ColumnType<string, string, string>;
}


/**
 * The server's own defaults that triggers read (migration 034): one row (`id` 1), written from the constants at
 * every migrate (db/server-settings.ts), so a default changes with the code, without a migration.
 */
export interface ServerSettingsTable {
  id: ColumnType<number, number, never>;
  waiting_delivery_limit: ColumnType<number, number, number>;
}
