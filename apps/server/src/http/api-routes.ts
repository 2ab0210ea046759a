import type { FastifyInstance } from 'fastify';
import {
  API_VERSION_HEADER,
  OPERATIONS,
  pinnedVersion,
  runOperation,
  type ApiVersioning,
  type CustomerService,
  type Operation,
  type TestClockDoor,
  type TestDataStore,
  type WebhookService,
} from '@customers-api/core';
import type { FastifyRequest } from 'fastify';
import { headerReader } from './header-reader.js';
import { queryOf } from './request-target.js';
import { responseSchemas } from './response-schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The core operation a route hosts; the body reader reads bodies only for operations that take one. */
    operation?: Operation;
  }
}

/**
 * One Fastify route per operation of core's table: method and path from openapi.yaml, responses serialized by
 * the spec's schemas, and the operation itself (body rules, service call, success answer) run by core. Every
 * other method or path is core's to answer (see error-handling.ts).
 */
export function registerApiRoutes(
  app: FastifyInstance,
  service: CustomerService,
  versioning: ApiVersioning,
  now: () => Date,
  webhooksFor?: (request: FastifyRequest) => WebhookService,
  testDataFor?: (request: FastifyRequest) => TestDataStore,
  testClock?: TestClockDoor,
): void {
  for (const operation of OPERATIONS) {
    app.route<{ Params: Record<string, string> }>({
      method: operation.method,
      url: operation.path.replace(/\{(\w+)\}/g, ':$1'),
      // HEAD is answered like GET by core's router; Fastify's automatic HEAD routes do the same here.
      exposeHeadRoute: operation.method === 'GET',
      config: { operation },
      schema: {
        response: responseSchemas(operation.successStatus, 'successSchema' in operation ? operation.successSchema : undefined),
      },
      async handler(request, reply) {
        // Without the header, the seller's pinned version (known only after authentication).
        const header = headerReader(request.headers);
        const pinned = pinnedVersion(versioning, header, request.seller, now);
        if (pinned !== undefined) {
          reply.header(API_VERSION_HEADER, pinned).headers(versioning.headersFor(pinned) ?? {});
          request.versionChanges = versioning.changesFor(pinned);
        }
        const result = await runOperation(operation, {
          service,
          seller: request.seller,
          params: request.params,
          header,
          query: queryOf(request.url),
          body: (request.body as Uint8Array | undefined) ?? null,
          preRead: request.preRead,
          preReadPage: request.preReadPage,
          changes: request.versionChanges,
          apiVersion: reply.getHeader(API_VERSION_HEADER) as string | undefined,
          webhooks: webhooksFor?.(request),
          testData: testDataFor?.(request),
          testClock,
        });
        reply.code(result.status).headers(result.headers);
        if (result.body === undefined) return reply.send();
        // An earlier version's shape is not the spec's schema (which serializes the latest): sent as it is.
        return request.versionChanges ? reply.send(JSON.stringify(result.body)) : result.body;
      },
    });
  }
}
