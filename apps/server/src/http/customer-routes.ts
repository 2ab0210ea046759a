import type { FastifyInstance } from 'fastify';
import { errors, type CustomerService } from '@customers-api/core';
import { requireBody } from './json-body-parser.js';
import { responseSchemas } from './response-schemas.js';

const COLLECTION = '/api/customers';
const ITEM = '/api/customers/:id';

/** HTTP onto core's customer service; every rule (validation, defaults, tenancy, limits) lives there. */
export function registerCustomerRoutes(app: FastifyInstance, service: CustomerService): void {
  app.post(COLLECTION, { schema: { response: responseSchemas(201, 'Customer') } }, async (request, reply) => {
    const idempotencyKey = request.headers['idempotency-key'];
    const { customer } = await service.create(request.seller, requireBody(request), {
      idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey.join(', ') : idempotencyKey,
    });
    reply.code(201).header('location', `${COLLECTION}/${customer.id}`);
    return customer;
  });

  app.get<{ Params: { id: string } }>(
    ITEM,
    { schema: { response: responseSchemas(200, 'Customer') } },
    async (request) => service.get(request.seller, request.params.id),
  );

  app.patch<{ Params: { id: string } }>(
    ITEM,
    { schema: { response: responseSchemas(200, 'Customer') } },
    async (request) => service.update(request.seller, request.params.id, requireBody(request)),
  );

  app.delete<{ Params: { id: string } }>(
    ITEM,
    { schema: { response: responseSchemas(204) } },
    async (request, reply) => {
      await service.delete(request.seller, request.params.id);
      return reply.code(204).send();
    },
  );

  // The other methods on the two API paths: 405 with Allow, as core's framework-free handler answers.
  const notAllowed = (allowed: readonly string[]) => async (request: { method: string }) => {
    throw errors.methodNotAllowed(request.method, allowed);
  };
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: COLLECTION, handler: notAllowed(['POST']) });
  app.route({ method: ['POST', 'PUT', 'OPTIONS'], url: ITEM, handler: notAllowed(['GET', 'PATCH', 'DELETE']) });
}
