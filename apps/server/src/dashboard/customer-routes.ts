import type { CustomerService, SellerContext } from '@customers-api/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { audited } from '../audit/audit-log.js';
import { dashboardAudit } from '../audit/request-audit.js';
import type { DatabaseHandle } from '../db/connect.js';
import { requireBody } from '../http/json-body-parser.js';
import { queryOf } from '../http/request-target.js';
import { dataModeOf } from './data-mode.js';
import type { Query } from './page-query.js';
import { changedFieldsOf } from '../audit/audit-details.js';

/** The public API's customer service over a store on this handle (a transaction's, for an audited change). */
export type CustomerServiceFor = (handle: DatabaseHandle) => CustomerService;

type CustomerRoute = FastifyRequest<{ Params: { id: string } }>;

/**
 * The JSON behind the Customers page (openapi.dashboard.yaml, tag Customers): the public API's own service, so
 * listing, finding, editing and deleting follow exactly its rules (validation, 404 for another seller's customer,
 * 409, the change events); edits and deletes are audited in the same transaction as the change.
 */
export function registerCustomerRoutes(
  app: FastifyInstance,
  { database, now, customers }: { database: DatabaseHandle; now: () => Date; customers: CustomerServiceFor },
): void {
  const service = customers(database);
  // The plan limit only matters to creates, which the dashboard does not offer. The mode (`?mode=test`) is the
  // page's test/live switch, a tenancy boundary the service and store keep like the seller.
  const sellerOf = (request: FastifyRequest): SellerContext => ({
    sellerId: request.dashboardSession!.sellerId,
    customerLimit: 0,
    mode: dataModeOf(request.query as Query),
  });

  // The rest of the query is the public API's own (its service parses and checks it).
  app.get('/customers', async (request) => {
    const seller = sellerOf(request);
    const rest = new URLSearchParams(queryOf(request.url));
    rest.delete('mode');
    return service.list(seller, rest.toString());
  });

  app.get('/customers/:id', async (request: CustomerRoute) => service.get(sellerOf(request), request.params.id));

  app.patch('/customers/:id', async (request: CustomerRoute) => {
    const seller = sellerOf(request);
    const body = requireBody(request);
    // The customer as it was, read in the update's transaction: the audit row records each changed field's values.
    const { after } = await audited(database, dashboardAudit(request),
      async (trx) => {
        const service = customers(trx);
        // A missing customer or a bad body: the update's own answer (404, 400), as without the read.
        const before = await service.get(seller, request.params.id).catch(() => undefined);
        return { before, after: await service.update(seller, request.params.id, body) };
      },
      ({ before, after }) => ({ sellerId: seller.sellerId, mode: seller.mode, action: 'customer.updated', targetId: after.id, details: before && changedFieldsOf(before, after) }), now());
    return after;
  });

  app.delete('/customers/:id', async (request: CustomerRoute, reply) => {
    const seller = sellerOf(request);
    const id = request.params.id;
    await audited(database, dashboardAudit(request), (trx) => customers(trx).delete(seller, id),
      () => ({ sellerId: seller.sellerId, mode: seller.mode, action: 'customer.deleted', targetId: id.toLowerCase() }), now());
    return reply.code(204).send();
  });
}
