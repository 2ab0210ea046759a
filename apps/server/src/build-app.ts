import { randomBytes } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyPluginCallback } from 'fastify';
import {
  API_VERSIONING,
  apiVersionHeaders,
  createApiHandler,
  createCustomerService,
  createMonotonicClock,
  type ApiVersioning,
  type Clock,
} from '@customers-api/core';
import type { DatabaseHandle } from './db/connect.js';
import { purgeExpiredIdempotencyKeys } from './db/idempotency-keys.js';
import { SqlCustomerStore } from './db/sql-customer-store.js';
import { registerDashboard } from './dashboard/register-dashboard.js';
import { pruneAuditLog } from './audit/audit-log.js';
import { registerAuditSettings } from './audit/request-audit.js';
import { registerHttpMetrics } from './observability/http-metrics.js';
import type { ServerMetrics } from './observability/metrics.js';
import { loadOpenApi } from './openapi-document.js';
import { apiKeyAudit, createApiWebhooks, createWebhookServices } from './http/api-webhooks.js';
import { SqlTestDataStore } from './db/sql-test-data.js';
import { sqlTestClock } from './db/test-clocks.js';
import { registerApiRoutes } from './http/api-routes.js';
import { registerApiVersion } from './http/api-version.js';
import { createKeyAndCustomerLookup, createKeyAndPageLookup, createKeyLookup, registerAuth, sha256Hex } from './http/auth.js';
import { readBodyBytes, registerBodyReader } from './http/body-reader.js';
import { clientErrorHandler } from './http/client-error.js';
import { registerEmptyPathParameter } from './http/empty-path-parameter.js';
import { registerDocsRoutes } from './http/docs-routes.js';
import { answerFromCore, handleError, registerErrorHandling } from './http/error-handling.js';
import { registerDraining } from './http/draining.js';
import { registerHealthRoutes } from './http/health-routes.js';
import { headerReader } from './http/header-reader.js';
import { createKeyUsageRecorder } from './http/key-usage.js';
import { answeredRequestId, registerRequestIdHeader, requestLogger, serverRequestId } from './http/request-id.js';
import { registerRequestLog } from './http/request-log.js';
import { openRequestLogFile } from './http/request-logs/request-log-file.js';
import { createRequestLogRecorder, type RequestLogRecorder } from './http/request-logs/request-log-recorder.js';
import { registerRequestLogging } from './http/request-logs/register-request-logging.js';
import { registerOpenApiSchemas } from './http/response-schemas.js';
import { registerWriteCoalescing } from './http/write-coalescing.js';
import { httpServerOptions, type HttpServerSettings } from './http/server-options.js';
import { createRequestLimits, type RateLimitSettings } from './rate-limit/request-limits.js';
import { registerWebhookDelivery, type WebhookSettings } from './webhooks/register-webhooks.js';
import { createSecretBox } from './webhooks/secret-box.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once every pending last_used_at write has finished. */
    drainKeyUsage(): Promise<void>;
    /** The request log's writer (http/request-logs/); undefined when the operator turned request logs off. */
    requestLogs: RequestLogRecorder | undefined;
  }
}

const IDEMPOTENCY_PURGE_INTERVAL_MS = 3_600_000;

export interface AppOptions {
  /** An open, migrated database; the caller closes it after `app.close()`. */
  database: DatabaseHandle;
  /** A pino logger; silent when omitted. */
  logger?: FastifyBaseLogger;
  /** Wall clock for key expiry and last-used times (tests may pin it). */
  now?: () => Date;
  /** Timestamps for created_at/updated_at; core's strictly increasing clock by default. */
  clock?: Clock;
  /** Request timeouts and proxy trust (see http/server-options.ts). */
  http?: HttpServerSettings;
  /** Per-seller and failed-authentication limits (see rate-limit/request-limits.ts); none when omitted. */
  rateLimit?: RateLimitSettings;
  /** Deliver webhooks from this process (the key that opens endpoint secrets, worker settings); off when omitted. */
  webhooks?: WebhookSettings;
  /** The audit log: whether rows record client addresses (on by default) and how long rows are kept (365 days). */
  audit?: { clientAddresses?: boolean; retentionDays?: number };
  /** Counts requests in these metrics (observability/metrics.ts); served by the caller's own listener. */
  metrics?: ServerMetrics;
  /** The versions answered and the changes between them (tests: a fixture version); openapi.yaml's when omitted. */
  versioning?: ApiVersioning;
  /**
   * The sellers' request logs (the dashboard's Request logs page): on by default; `false` records nothing
   * (`serve --request-logs off`).
   */
  requestLogs?: boolean;
  /** Traces requests with this plugin (@fastify/otel, see observability/tracing.ts); off when omitted. */
  tracing?: { plugin: FastifyPluginCallback };
}

/**
 * The composition root: the API (core's operations as Fastify routes over the SQL stores), the docs, health
 * checks and the seller dashboard in one application, without listening: tests use `app.inject()` or
 * `app.listen({ port: 0 })`.
 *
 * @example
 * const app = await buildApp({ database: connectDatabase('sqlite:./data/customers.db') });
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database } = options;
  const now = options.now ?? (() => new Date());
  const versioning = options.versioning ?? API_VERSIONING;
  let core: ReturnType<typeof createApiHandler> | undefined;
  const app = Fastify({
    ...httpServerOptions(options.http),
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: serverRequestId,
    childLoggerFactory: requestLogger,
    // request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Every path segment must reach the route, however long (a malformed id is a 401/404 like any other, never
    // an undocumented 414/400): above Node's 16 KiB header limit, which already bounds the whole request line.
    routerOptions: { maxParamLength: 65_536 },
    // In-flight requests finish on close; new connections are refused by the closed listener.
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', answeredRequestId(request)).headers(apiVersionHeaders(headerReader(request.headers), now));
      // A path Fastify cannot decode (broken percent-encoding in an id) is core's to answer, like any other.
      if (error.code !== 'FST_ERR_BAD_URL' || !core) return handleError(error, request, reply);
      const answer = core;
      readBodyBytes(request.raw)
        .then((body) => answerFromCore(answer, request, reply, body))
        .catch((failure: unknown) => handleError(failure, request, reply));
    },
  }) as unknown as FastifyInstance;

  const openapi = loadOpenApi();
  const usage = createKeyUsageRecorder(database, app.log, now);
  const lookupKey = createKeyLookup({ database, usage, now });
  const lookupKeyAndCustomer = createKeyAndCustomerLookup({ database, usage, now });
  const lookupKeyAndPage = createKeyAndPageLookup({ database, usage, now });
  // One service for the API; the dashboard's audited customer changes get one over their transaction.
  const clock = options.clock ?? createMonotonicClock();
  const customersFor = (handle: DatabaseHandle) => createCustomerService({ store: new SqlCustomerStore(handle), clock });
  const service = customersFor(database);
  const limits = options.rateLimit ? createRequestLimits(options.rateLimit) : undefined;
  // One box for the dashboard, the public API and the delivery worker: each opens what the others sealed.
  const secrets = options.webhooks?.secrets ?? createSecretBox(randomBytes(32));
  // One webhook service factory (the customer service's clock) for the public API and the dashboard alike.
  const webhookServices = createWebhookServices({
    database,
    box: secrets,
    allowPrivate: options.webhooks?.allowPrivate ?? false,
    versions: versioning.versions,
    clock,
    now,
  });
  const webhooksFor = createApiWebhooks(webhookServices);
  core = createApiHandler({ service, lookupKey, hashKey: sha256Hex, now, versioning, ...(limits ? { rateLimiter: limits.sellers } : {}) });

  // First, so every route and hook registered after it is traced.
  if (options.tracing) await app.register(options.tracing.plugin);
  registerAuditSettings(app, options.audit);
  if (options.metrics) registerHttpMetrics(app, options.metrics);
  registerRequestIdHeader(app);
  registerWriteCoalescing(app);
  registerRequestLog(app);
  registerErrorHandling(app, core);
  registerOpenApiSchemas(app, openapi.document);
  registerBodyReader(app);
  registerDraining(app);
  registerHealthRoutes(app, { database, redis: options.rateLimit?.redis, webhookKey: options.webhooks?.secrets });
  await registerDocsRoutes(app, openapi);
  const routedByCore = core;
  // A SQLite file's request log is a file of its own, written on a thread of its own (request-log-file.ts).
  const requestLogFile = await openRequestLogFile(database);
  const requestLogs = options.requestLogs === false
    ? undefined
    : createRequestLogRecorder({ database, file: requestLogFile, log: app.log, now, ...(options.metrics ? { dropped: options.metrics.requestLogsDropped } : {}) });
  app.decorate('requestLogs', requestLogs);
  app.addHook('onClose', async () => {
    await requestLogs?.close();
    await requestLogFile?.close();
  });
  await app.register(async (api) => {
    registerEmptyPathParameter(api, routedByCore);
    registerApiVersion(api, now, versioning);
    registerAuth(api, { lookupKey, lookupKeyAndCustomer, lookupKeyAndPage }, limits, { database, now });
    if (requestLogs) registerRequestLogging(api, requestLogs, now);
    registerApiRoutes(api, service, versioning, now, webhooksFor, (request) => new SqlTestDataStore(database, apiKeyAudit(request), now), sqlTestClock(database, now));
  });
  // The seller dashboard (/dashboard): cookie sessions, never API keys; see src/dashboard.
  // Sellers register endpoints there; without webhook settings (tests) their secrets are sealed with a key of
  // this app alone, and nothing is delivered.
  await registerDashboard(app, {
    database,
    requestLogDatabase: requestLogFile?.handle ?? database,
    now,
    customers: customersFor,
    versions: versioning.versions,
    webhooks: {
      box: secrets,
      allowPrivate: options.webhooks?.allowPrivate ?? false,
      rateLimiter: limits?.sellers,
      services: webhookServices,
    },
  });
  // Change events: the outbox's deliveries are sent from inside the server process (src/webhooks).
  if (options.webhooks) registerWebhookDelivery(app, database, { versioning, ...options.webhooks });
  // Lets tests (and shutdown) wait for pending last_used_at writes without sleeping.
  app.decorate('drainKeyUsage', () => usage.drain());
  app.addHook('onClose', async () => usage.drain());

  // Expired idempotency records are ignored anyway; an hourly purge keeps the table small. Audit rows past their
  // retention go at the same pace.
  const purge = setInterval(() => {
    purgeExpiredIdempotencyKeys(database, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge expired idempotency keys'),
    );
    pruneAuditLog(database, { now: now(), ...(options.audit?.retentionDays ? { retentionDays: options.audit.retentionDays } : {}) })
      .then((pruned) => pruned > 0 && app.log.info({ pruned }, 'audit log: deleted rows past their retention'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not prune the audit log'));
  }, IDEMPOTENCY_PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
  return app;
}
