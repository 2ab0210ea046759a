import client from 'prom-client';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../db/connect.js';
import type { UnavailableKind } from '../db/database-unavailable.js';
import type { DeliveryObserver } from '../webhooks/delivery-worker.js';
import { buildInfo } from './build-info.js';
import { FastHistogram } from './fast-histogram.js';
import type { QueryInfo, QueryObserver } from './query-observer.js';

/** The OpenTelemetry HTTP semantic conventions' advised buckets for `http.server.request.duration`, in seconds. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Database statements take microseconds on SQLite: finer buckets below a millisecond. */
const QUERY_DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The server's Prometheus metrics (listed with their meaning in the README, "Operating"). Every label value comes
 * from a fixed set (a method, a route template, a status, an outcome, an operation): none carries a seller id,
 * key, email or URL, so the number of series stays bounded whatever the traffic.
 */
export interface ServerMetrics {
  registry: client.Registry;
  /** One finished HTTP request. `route` is the route template (`/api/customers/:id`), '' when none matched. */
  /**
   * One answered request. `route` is the matched route template, or `unmatched` (http-metrics.ts); `scheme` is the
   * request's (`https` only when a trusted proxy says so).
   */
  requestFinished(method: string, route: string, status: number, seconds: number, scheme?: 'http' | 'https'): void;
  requestStarted(): void;
  requestEnded(): void;
  /** A 429 by the limit that refused it. */
  rateLimited(limit: 'seller' | 'unauthenticated' | 'other'): void;
  /** Sees every database statement (connectDatabase's `observer`). */
  queries: QueryObserver;
  /** Sees every webhook delivery attempt (the delivery worker's `observer`). */
  deliveries: DeliveryObserver;
  /** A database error that means the database does not answer (connectDatabase's `onUnavailable`). */
  databaseError(kind: UnavailableKind): void;
  /** Request-log rows not recorded (http/request-logs/): the buffer was full, the seller's share was, or the write failed. */
  requestLogsDropped(reason: 'buffer_full' | 'seller_full' | 'write_failed', count: number): void;
  /** Reads at each scrape whether a dependency that fails open answers (1) or not (0). */
  watchDependency(dependency: 'redis', isUp: () => boolean): void;
  /** Reads the delivery queue and the connection pool of this database at each scrape. */
  watchDatabase(database: DatabaseHandle): void;
}

/**
 * A registry with the server's metrics and prom-client's process defaults (CPU, memory, file descriptors, GC,
 * event-loop delay).
 *
 * @example
 * const metrics = createServerMetrics();
 * const listener = await startMetricsListener(metrics, { port: 9464, host: '127.0.0.1' });
 */
export function createServerMetrics({ now: clock = Date.now }: { now?: () => number } = {}): ServerMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  // Gauges named like counters (promtool's lint refuses them); nodejs_active_handles and friends say the same.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
    registry.removeSingleMetric(name);
  }
  const registers = [registry];
  const build = buildInfo(process.env);
  new client.Gauge({
    name: 'customers_build_info',
    help: 'Always 1; its labels say what this process runs: the server version and the commit (CUSTOMERS_API_COMMIT).',
    labelNames: ['version', 'commit'] as const,
    registers,
  }).set({ version: build.version, commit: build.commit }, 1);

  // The per-request and per-statement instruments are plain numbers and FastHistograms, read at scrape time.
  const duration = new FastHistogram(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests, by method, route template ("unmatched" when no route matched), status, url scheme and error type (the status for a 5xx, as the OTel HTTP conventions say; empty otherwise).',
    ['http_request_method', 'http_route', 'http_response_status_code', 'url_scheme', 'error_type'],
    HTTP_DURATION_BUCKETS,
  );
  registry.registerMetric(duration as unknown as client.Metric);
  let activeRequests = 0;
  new client.Gauge({
    name: 'http_server_active_requests',
    help: 'Number of active HTTP server requests.',
    registers,
    collect() {
      this.set(activeRequests);
    },
  });
  const rateLimited = new client.Counter({
    name: 'customers_rate_limited_requests_total',
    help: 'Requests refused with 429, by the limit that refused them: seller (a seller\'s request budget), unauthenticated (failed authentications of a client address) or other.',
    labelNames: ['limit'] as const,
    registers,
  });
  const queryDuration = new FastHistogram(
    'customers_db_query_duration_seconds',
    'Duration of database statements, by database, operation (SELECT, INSERT, UPDATE, DELETE, OTHER) and first table (empty when none is named).',
    ['db_system_name', 'db_operation_name', 'db_collection_name'],
    QUERY_DURATION_BUCKETS,
  );
  registry.registerMetric(queryDuration as unknown as client.Metric);
  const deliveries = new client.Counter({
    name: 'customers_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, retried later), failed (given up), lost (another worker took it over), aborted (shutdown), error (outcome not recorded).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const databaseErrors = new client.Counter({
    name: 'customers_database_errors_total',
    help: 'Database errors that mean the database does not answer, by kind: refused, lost (connection broken), shutting_down, starting_up, timeout, busy (SQLite busy past its timeout, PostgreSQL out of connections), io.',
    labelNames: ['kind'] as const,
    registers,
  });
  const requestLogsDropped = new client.Counter({
    name: 'customers_request_logs_dropped_total',
    help: 'Request-log rows not recorded, by reason: buffer_full (10,000 waiting to be written), seller_full (1,000 of one seller waiting), write_failed (the database refused the batch).',
    labelNames: ['reason'] as const,
    registers,
  });
  const dependencies = new Map<string, () => boolean>();
  new client.Gauge({
    name: 'customers_dependency_up',
    help: 'Whether a dependency that fails open answers (1) or not (0): redis (the shared rate limits; while 0, each process counts alone). /readyz names such a dependency as degraded and stays 200.',
    labelNames: ['dependency'] as const,
    registers,
    collect() {
      for (const [dependency, isUp] of dependencies) this.set({ dependency }, isUp() ? 1 : 0);
    },
  });
  const inFlight = new client.Gauge({ name: 'customers_webhook_attempts_in_flight', help: 'Webhook delivery attempts running in this process.', registers });
  const attemptDuration = new client.Histogram({
    name: 'customers_webhook_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts, from the start to the outcome recorded (signing, the request, the answer, the write), by outcome as in customers_webhook_deliveries_total.',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const attemptLag = new client.Histogram({
    name: 'customers_webhook_attempt_lag_seconds',
    help: 'From a delivery falling due (its change, or its retry time) to the start of its attempt: how far the worker is behind.',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
    registers,
  });
  const databases: DatabaseHandle[] = [];
  // One read per scrape for both queue gauges (the two collects of a scrape share it).
  let pending: { at: number; figures: Promise<QueueFigures | undefined> } | undefined;
  const readQueue = (): Promise<QueueFigures | undefined> => {
    const now = clock();
    if (!pending || now - pending.at >= 1000) pending = { at: now, figures: queryQueue(databases[0], new Date(now)) };
    return pending.figures;
  };
  new client.Gauge({
    name: 'customers_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (due now or scheduled for a retry), in the whole database.',
    registers,
    async collect() {
      const queue = await readQueue();
      if (queue) this.set(queue.depth);
    },
  });
  new client.Gauge({
    name: 'customers_webhook_queue_oldest_waiting_age_seconds',
    help: 'How long the oldest waiting webhook delivery (due now or in a retry back-off) has waited since it was queued (0 when none waits).',
    registers,
    async collect() {
      const queue = await readQueue();
      if (queue) this.set(queue.oldestWaitingAgeSeconds);
    },
  });
  new client.Gauge({
    name: 'customers_webhook_queue_oldest_due_age_seconds',
    help: 'How long the oldest due webhook delivery has waited since it fell due (0 when none is due).',
    registers,
    async collect() {
      const queue = await readQueue();
      if (queue) this.set(queue.oldestDueAgeSeconds);
    },
  });
  const poolStats = () => databases.find((database) => database.poolStats)?.poolStats?.();
  const poolGauge = (name: string, help: string, read: (stats: NonNullable<ReturnType<typeof poolStats>>) => number) =>
    new client.Gauge({
      name,
      help,
      registers,
      collect() {
        const stats = poolStats();
        if (stats) this.set(read(stats));
      },
    });
  poolGauge('customers_db_pool_connections_in_use', 'PostgreSQL connections of this process in use (always 0 on SQLite, which has no pool).', (s) => s.total - s.idle);
  poolGauge('customers_db_pool_connections_idle', 'PostgreSQL connections of this process open and idle (0 on SQLite).', (s) => s.idle);
  poolGauge('customers_db_pool_connections_max', 'The most PostgreSQL connections this process opens (its pool size; 0 on SQLite).', (s) => s.max);
  poolGauge('customers_db_pool_pending_requests', 'Requests for a PostgreSQL connection waiting because every one is in use (0 on SQLite): above 0 for long, the pool is too small or the database slow.', (s) => s.waiting);

  // Label combinations are looked up once each, not hashed on every request: by route template, then method
  // (both strings Fastify and Node's parser reuse, so their hashes are cached), then status (an array index).
  const children = new Map<string, Map<string, ((seconds: number) => void)[]>>();
  const queryChildren = new Map<string, (seconds: number) => void>();
  const queryTimer = ({ system, operation, collection }: QueryInfo) => {
    const key = `${system} ${operation} ${collection}`;
    let observe = queryChildren.get(key);
    if (!observe) {
      observe = queryDuration.series(system, operation, collection);
      queryChildren.set(key, observe);
    }
    return observe;
  };
  const queries: QueryObserver = (query) => {
    const observe = queryTimer(query);
    const start = performance.now();
    return () => observe((performance.now() - start) / 1000);
  };
  // Statements prepared once (SQLite) take their series once and only time each run.
  queries.timer = queryTimer;

  return {
    registry,
    requestFinished(method, route, status, seconds, scheme = 'http') {
      let methods = children.get(route);
      if (!methods) children.set(route, (methods = new Map()));
      let statuses = methods.get(method);
      if (!statuses) methods.set(method, (statuses = []));
      // One cached series per status and scheme: even slots for http, odd for https.
      const slot = status * 2 + (scheme === 'https' ? 1 : 0);
      (statuses[slot] ??= duration.series(method, route, String(status), scheme, status >= 500 ? String(status) : ''))(seconds);
    },
    requestStarted: () => {
      activeRequests++;
    },
    requestEnded: () => {
      activeRequests--;
    },
    rateLimited: (limit) => rateLimited.inc({ limit }),
    databaseError: (kind) => databaseErrors.inc({ kind }),
    requestLogsDropped: (reason, count) => requestLogsDropped.inc({ reason }, count),
    queries,
    deliveries: (delivery) => {
      inFlight.inc();
      const started = performance.now();
      const due = delivery.dueAt === null ? Number.NaN : Date.parse(delivery.dueAt);
      if (Number.isFinite(due)) attemptLag.observe(Math.max(0, (Date.now() - due) / 1000));
      return (end) => {
        inFlight.dec();
        deliveries.inc({ outcome: end });
        attemptDuration.observe({ outcome: end }, (performance.now() - started) / 1000);
      };
    },
    watchDependency(dependency, isUp) {
      dependencies.set(dependency, isUp);
    },
    watchDatabase(database) {
      databases.push(database);
    },
  };
}

interface QueueFigures {
  depth: number;
  oldestDueAgeSeconds: number;
  oldestWaitingAgeSeconds: number;
}

async function queryQueue(database: DatabaseHandle | undefined, now: Date): Promise<QueueFigures | undefined> {
  if (!database) return undefined;
  try {
    // Neither reads the waiting rows: the depth sums the queue heads' counts (a row per endpoint, kept by
    // triggers, migration 024), the oldest due one is the first entry of the due index.
    // The oldest waiting one, due or in back-off, is the first by id of the waiting index (migration 026): a
    // delivery waiting out a retry is a backlog too, and its age counts from when it was queued.
    const { rows } = await sql<{ depth: number | string | null; oldest: Date | string | null; queued: Date | string | null }>`
      select (select coalesce(sum(waiting), 0) from webhook_delivery_heads) as depth,
        (select min(next_attempt_at) from webhook_deliveries
          where next_attempt_at is not null and next_attempt_at <= ${now.toISOString()}) as oldest,
        (select created_at from webhook_deliveries where next_attempt_at is not null order by id limit 1) as queued`.execute(database.db);
    const row = rows[0];
    if (!row) return undefined;
    const ageOf = (at: Date | string | null) => (at === null ? 0 : Math.max(0, (now.getTime() - new Date(at).getTime()) / 1000));
    return { depth: Number(row.depth), oldestDueAgeSeconds: ageOf(row.oldest), oldestWaitingAgeSeconds: ageOf(row.queued) };
  } catch {
    // The database does not answer: the gauges keep their last values (readiness says why).
    return undefined;
  }
}
