import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { DEFAULT_SHUTDOWN_DELAY_MS, type ServerConfig } from '../config.js';
import { connectDatabase, DEFAULT_STATEMENT_TIMEOUT_MS, type DatabaseHandle } from '../db/connect.js';
import { createLoginLink, loginLinkUrl } from '../dashboard/login-links.js';
import { migrateToLatest } from '../db/migrations.js';
import { buildApp } from '../build-app.js';
import { connectRedis, firstConnectionAttempt } from '../rate-limit/redis-connection.js';
import { createLogger } from '../logger.js';
import { DEFAULT_RATE_LIMIT } from '../rate-limit/request-limits.js';
import { demoAccountMessage, seedDemoAccount } from './demo-seed.js';
import { assertSecretKeyMatches } from '../webhooks/register-webhooks.js';
import { loadSecretKey } from '../webhooks/secret-key.js';
import { createServerMetrics } from '../observability/metrics.js';
import { SERVER_ACTOR } from '../audit/audit-actions.js';
import { audited } from '../audit/audit-log.js';
import { combineObservers } from '../observability/query-observer.js';
import { startTracing } from '../observability/tracing.js';
import type { DeliveryObserver } from '../webhooks/delivery-worker.js';
import { startMetricsListener, type MetricsListener } from '../observability/metrics-listener.js';

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** e.g. http://127.0.0.1:3000 */
  url: string;
  /** Stops accepting connections, finishes in-flight requests, then closes the database. Idempotent. */
  close(): Promise<void>;
  /**
   * A shutdown a load balancer can see: /readyz 503 at once while the listener still accepts for the configured
   * delay (answers say `Connection: close`), then close(). One log line at each step. Idempotent.
   */
  shutdown(signal: string): Promise<void>;
}

/**
 * Opens and migrates the database, seeds a demo account on an empty one (printing its key and a sign-in link
 * once through `print`: stderr by default, apart from the JSON log lines on stdout), and listens.
 *
 * @example
 * const server = await startServer({ port: 0, host: '127.0.0.1', databaseUrl: 'sqlite:./data/x.db', logLevel: 'info' });
 */
export async function startServer(
  config: ServerConfig,
  { print = (text: string) => process.stderr.write(text), logger }: { print?: (text: string) => void; logger?: Logger } = {},
): Promise<RunningServer> {
  const log = logger ?? createLogger(config.logLevel);
  const metrics = config.metricsPort === undefined ? undefined : createServerMetrics();
  // Configured by the OTEL_* variables alone; not even loaded without an endpoint.
  const tracing = await startTracing(process.env, { trustTraceparent: config.trustTraceparent ?? false });
  const database = connectDatabase(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous ?? 'full',
    ...(config.postgresPoolSize === undefined ? {} : { poolSize: config.postgresPoolSize }),
    statementTimeoutMs: config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    observer: combineObservers(metrics?.queries, tracing?.queries),
    onUnavailable: metrics?.databaseError,
  });
  metrics?.watchDatabase(database);
  let metricsListener: MetricsListener | undefined;
  const redis = config.redisUrl && config.rateLimit !== 0 ? connectRedis(config.redisUrl, log) : undefined;
  if (redis) metrics?.watchDependency('redis', () => redis.status === 'ready');
  try {
    await migrateToLatest(database);
    if (redis) await firstConnectionAttempt(redis);
    const http = { requestTimeoutMs: config.requestTimeoutMs, trustProxy: config.trustProxy };
    const rateLimit = { perSecond: config.rateLimit ?? DEFAULT_RATE_LIMIT, ...(redis ? { redis } : {}) };
    const key = loadSecretKey({ ...config.webhookSecretKey, databaseUrl: config.databaseUrl });
    await assertSecretKeyMatches(database, key.box);
    const allowPrivate = config.allowPrivateWebhooks ?? false;
    const webhooks = { secrets: key.box, allowPrivate, observer: bothDeliveryObservers(metrics?.deliveries, tracing?.deliveries) };
    const audit = { clientAddresses: config.auditClientAddresses ?? true, ...(config.auditRetentionDays ? { retentionDays: config.auditRetentionDays } : {}) };
    const app = await buildApp({ database, logger: log, http, rateLimit, webhooks, audit, requestLogs: config.requestLogs ?? true, ...(metrics ? { metrics } : {}), ...(tracing ? { tracing } : {}) });
    const demo = await seedDemoAccount(database);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    if (metrics) {
      metricsListener = await startMetricsListener(metrics, {
        port: config.metricsPort!,
        host: config.metricsHost ?? '127.0.0.1',
        ...(config.requestTimeoutMs !== undefined && { requestTimeoutMs: config.requestTimeoutMs }),
      });
      log.info({ url: metricsListener.url }, 'metrics listening');
    }
    if (demo) {
      const link = await audited(database, SERVER_ACTOR, (trx) => createLoginLink(trx, demo.sellerId), () => ({
        sellerId: demo.sellerId,
        action: 'sign_in_link.issued',
        targetId: null,
      }));
      print(demoAccountMessage(demo, url, loginLinkUrl(url, link.token)));
      // The log stream says that it happened, never what the key or the link is.
      log.info({ sellerId: demo.sellerId }, 'created a demo seller; its API key and a sign-in link are on stderr');
    }
    log.info(
      // Where the webhook key came from (a file path or the variable's name), never the key.
      { url, database: database.display, rateLimit: rateLimit.perSecond, redis: Boolean(redis), webhookKey: key.source, allowPrivateWebhooks: allowPrivate },
      'listening',
    );
    let closing: Promise<void> | undefined;
    let shuttingDown: Promise<void> | undefined;
    const delayMs = config.shutdownDelayMs ?? DEFAULT_SHUTDOWN_DELAY_MS;
    const close = () => {
      closing ??= (async () => {
        await app.close();
        await metricsListener?.close();
        redis?.disconnect();
        await database.close();
        await tracing?.shutdown();
        log.info('stopped');
      })();
      return closing;
    };
    return {
      app,
      database,
      url,
      close,
      shutdown: (signal) => {
        shuttingDown ??= (async () => {
          app.beginDraining();
          log.info({ signal, delayMs }, 'shutdown: begun; /readyz answers 503, still accepting until the delay is over');
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          log.info('shutdown: delay over; no longer accepting connections, finishing in-flight requests');
          await close();
        })();
        return shuttingDown;
      },
    };
  } catch (error) {
    await metricsListener?.close();
    redis?.disconnect();
    await database.close().catch(() => {});
    await tracing?.shutdown().catch(() => {});
    throw error;
  }
}

/** The metrics' and the traces' delivery observers as one. */
function bothDeliveryObservers(...observers: (DeliveryObserver | undefined)[]): DeliveryObserver | undefined {
  const present = observers.filter((observer): observer is DeliveryObserver => observer !== undefined);
  if (present.length <= 1) return present[0];
  return (delivery) => {
    const ends = present.map((observer) => observer(delivery));
    return (end, outcome) => ends.forEach((done) => done(end, outcome));
  };
}
