import type { FastifyInstance } from 'fastify';
import { errors, type RateLimiter } from '@customers-api/core';
import { pathOf } from '../http/request-target.js';
import { CONTENT_SECURITY_POLICY, registerSecurityHeaders } from '../http/security-headers.js';
import { sendApiError, sendDashboardError } from '../http/send-error.js';
import { handleError } from '../http/error-handling.js';
import type { DatabaseHandle } from '../db/connect.js';
import { registerJsonBodyParser } from '../http/json-body-parser.js';
import { registerActivityRoutes } from './activity-routes.js';
import { registerRequestLogRoutes } from './request-log-routes.js';
import { registerCustomerRoutes, type CustomerServiceFor } from './customer-routes.js';
import { registerEventRoutes } from './event-routes.js';
import { registerApiRoutes } from './api-routes.js';
import type { ApiVersion } from '@customers-api/core';
import { loadDashboardAssets } from './assets.js';
import { registerLoginRoutes } from './login-routes.js';
import { registerPageRoutes, sendPageNotFound } from './page-routes.js';
import { registerSessionGuard } from './session-guard.js';
import { registerTestDataRoutes } from './test-data-routes.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import type { WebhookServiceFor } from '../http/api-webhooks.js';

/**
 * The seller dashboard under /dashboard: sign-in with one-time links, the Settings pages (API Keys, Webhooks) and their
 * JSON API (/dashboard/api, cookie sessions only). The public API (/api) never sees the cookie, which is
 * scoped to Path=/dashboard, and never accepts it anyway: it reads API keys only.
 */
export interface DashboardDeps {
  database: DatabaseHandle;
  /** Where the request log's rows are: the main database, or a SQLite file's request log file. */
  requestLogDatabase?: DatabaseHandle;
  now: () => Date;
  /** The API's versions (the account's pin moves among them); openapi.yaml's when omitted. */
  versions?: readonly ApiVersion[] | undefined;
  /**
   * Webhook endpoints: the key that seals their secrets, whether private addresses are allowed, and the API's
   * per-seller limiter that their changes, test events and resends take from (none: not limited).
   */
  /** The public API's customer service over a store on a given handle (the Customers page uses the same rules). */
  customers: CustomerServiceFor;
  /** …and core's webhook service per actor, the public API's: the dashboard's endpoint changes go through it. */
  webhooks: { box: SecretBox; allowPrivate: boolean; rateLimiter?: RateLimiter | undefined; services: WebhookServiceFor };
}

export async function registerDashboard(app: FastifyInstance, { webhooks, ...deps }: DashboardDeps) {
  const assets = loadDashboardAssets();
  await app.register(
    async (dashboard) => {
      registerJsonBodyParser(dashboard);
      registerSecurityHeaders(dashboard, CONTENT_SECURITY_POLICY);
      // Unknown paths under /dashboard get their 404 from inside this scope, so with its security headers: the
      // API's JSON one under /dashboard/api (and for assets), a page with a way back anywhere else.
      dashboard.setNotFoundHandler((request, reply) => {
        const path = pathOf(request.url);
        return /^\/dashboard\/(api|assets)(\/|$)/.test(path)
          ? sendApiError(reply, errors.routeNotFound(path))
          : sendPageNotFound(reply, assets);
      });
      registerPageRoutes(dashboard, { ...deps, assets });
      await dashboard.register(async (login) => registerLoginRoutes(login, { ...deps, assets }));
      await dashboard.register(
        async (api) => {
          // The API's errors, with the property a 400 or 409 is about as data (`field`) for the pages' forms.
          api.setErrorHandler((error, request, reply) => handleError(error, request, reply, sendDashboardError));
          registerSessionGuard(api, deps);
          registerApiRoutes(api, { ...deps, rateLimiter: webhooks.rateLimiter });
          registerWebhookRoutes(api, { database: deps.database, now: deps.now, ...webhooks });
          registerActivityRoutes(api, deps);
          registerRequestLogRoutes(api, { database: deps.requestLogDatabase ?? deps.database });
          registerCustomerRoutes(api, deps);
          registerEventRoutes(api, { ...deps, rateLimiter: webhooks.rateLimiter });
          registerTestDataRoutes(api, { ...deps, rateLimiter: webhooks.rateLimiter });
        },
        { prefix: '/api' },
      );
    },
    { prefix: '/dashboard' },
  );
}
