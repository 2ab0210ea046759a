import { wipeTestData, type RateLimiter } from '@customers-api/core';
import type { FastifyInstance } from 'fastify';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { SqlTestDataStore } from '../db/sql-test-data.js';
import { chargeSellerBudget } from './seller-budget.js';

/**
 * The test-mode view's "Delete all test data" (openapi.dashboard.yaml, `DELETE /dashboard/api/test_data`): the public
 * API's `DELETE /api/test_data` for the signed-in seller, through core's same rule and the same SQL store, so it is
 * audited the same way (one `test_data.deleted` row, marked test, here with the session as actor). It only ever
 * acts on test data, whatever page asked; it costs one request of the seller's budget like any change.
 */
export function registerTestDataRoutes(
  app: FastifyInstance,
  { database, now, rateLimiter }: { database: DatabaseHandle; now: () => Date; rateLimiter?: RateLimiter | undefined },
): void {
  app.delete('/test_data', { onRequest: chargeSellerBudget(database, rateLimiter) }, async (request) =>
    wipeTestData(
      { sellerId: request.dashboardSession!.sellerId, customerLimit: 0, mode: 'test' },
      new SqlTestDataStore(database, dashboardAudit(request), now),
    ),
  );
}
