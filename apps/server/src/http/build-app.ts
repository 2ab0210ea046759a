import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createCustomerService, errors, type Clock } from '@customers-api/core';
import type { DatabaseHandle } from '../db/connect.js';
import { purgeExpiredIdempotencyKeys } from '../db/idempotency-keys.js';
import { SqlCustomerStore } from '../db/sql-customer-store.js';
import { registerDashboard } from '../dashboard/register-dashboard.js';
import { loadOpenApi } from '../openapi-document.js';
import { createAuthenticator, registerAuth, type Authenticator } from './auth.js';
import { registerCustomerRoutes } from './customer-routes.js';
import { registerDocsRoutes } from './docs-routes.js';
import { handleError, pathOf, registerErrorHandling } from './error-handling.js';
import { registerHealthRoutes } from './health-routes.js';
import { registerJsonBodyParser } from './json-body-parser.js';
import { clientErrorHandler } from './client-error.js';
import { createKeyUsageRecorder } from './key-usage.js';
import { registerRequestIdHeader, requestIdFor } from './request-id.js';
import { registerRequestLog } from './request-log.js';
import { registerWriteCoalescing } from './write-coalescing.js';
import { registerOpenApiSchemas } from './response-schemas.js';
import { sendApiError } from './send-error.js';
import { httpServerOptions } from './server-options.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once every pending last_used_at write has finished. */
    drainKeyUsage(): Promise<void>;
  }
}

const IDEMPOTENCY_PURGE_INTERVAL_MS = 3_600_000;

const ITEM_PATH = /^\/api\/customers\/[^/]+$/;

export interface AppOptions {
  /** An open, migrated database; the caller closes it after `app.close()`. */
  database: DatabaseHandle;
  /** A pino logger; silent when omitted. */
  logger?: FastifyBaseLogger;
  /** Wall clock for key expiry and last-used times (tests may pin it). */
  now?: () => Date;
  /** Timestamps for created_at/updated_at; core's strictly increasing clock by default. */
  clock?: Clock;
}

/**
 * The whole HTTP application, without listening: tests use `app.inject()` or `app.listen({ port: 0 })`.
 *
 * @example
 * const app = await buildApp({ database: connectDatabase('sqlite:./data/customers.db') });
 * await app.listen({ port: 3000, host: '127.0.0.1' });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database } = options;
  const now = options.now ?? (() => new Date());
  let authenticateRequest: Authenticator | undefined;
  const app = Fastify({
    ...httpServerOptions(options.http),
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: requestIdFor,
    // request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Every path segment must reach the route, however long (a malformed id is a 401/404 like any other, never
    // an undocumented 414/400): above Node's 16 KiB header limit, which already bounds the whole request line.
    routerOptions: { maxParamLength: 65_536 },
    // In-flight requests finish on close; new connections are refused by the closed listener.
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      if (error.code !== 'FST_ERR_BAD_URL') return handleError(error, request, reply);
      // Broken percent-encoding in an id: like core's router, a missing customer (after auth); elsewhere no route.
      const path = pathOf(request.url);
      if (!ITEM_PATH.test(path) || !authenticateRequest) return sendApiError(reply, errors.routeNotFound(path));
      authenticateRequest(request.headers).then(
        () => sendApiError(reply, errors.customerNotFound()),
        (failure: unknown) => handleError(failure, request, reply),
      );
    },
  }) as unknown as FastifyInstance;

  const openapi = loadOpenApi();
  const usage = createKeyUsageRecorder(database, app.log, now);
  const authenticator = createAuthenticator({ database, usage, now });
  authenticateRequest = authenticator;
  const service = createCustomerService({
    store: new SqlCustomerStore(database),
    ...(options.clock ? { clock: options.clock } : {}),
  });

  registerRequestIdHeader(app);
  registerWriteCoalescing(app);
  registerRequestLog(app);
  registerErrorHandling(app);
  registerOpenApiSchemas(app, openapi.document);
  registerJsonBodyParser(app);
  registerHealthRoutes(app, database);
  await registerDocsRoutes(app, openapi);
  await app.register(async (api) => {
    registerAuth(api, authenticator);
    registerCustomerRoutes(api, service);
  });
  // The seller dashboard (/dashboard): cookie sessions, never API keys; see src/dashboard.
  await registerDashboard(app, { database, now });
  // Lets tests (and shutdown) wait for pending last_used_at writes without sleeping.
  app.decorate('drainKeyUsage', () => usage.drain());
  app.addHook('onClose', async () => usage.drain());

  // Expired idempotency records are ignored anyway; an hourly purge keeps the table small.
  const purge = setInterval(() => {
    purgeExpiredIdempotencyKeys(database, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not purge expired idempotency keys'),
    );
  }, IDEMPOTENCY_PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
  return app;
}
