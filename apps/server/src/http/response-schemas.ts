import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from '../openapi-document.js';

const SHARED_ID = 'openapi';

/**
 * Registers openapi.yaml's component schemas with Fastify once, so responses are serialized (and stripped of
 * anything undeclared) by the contract itself. Refs inside the components (`#/components/schemas/...`)
 * resolve against this shared schema.
 */
export function registerOpenApiSchemas(app: FastifyInstance, document: OpenApiDocument): void {
  app.addSchema({ $id: SHARED_ID, components: { schemas: document.components.schemas } });
}

function ref(name: string) {
  return { $ref: `${SHARED_ID}#/components/schemas/${name}` };
}

/** Response schemas of a route: the success status with the named schema, every error with `Error`. */
export function responseSchemas(successStatus: number, schema?: string) {
  return {
    ...(schema ? { [successStatus]: ref(schema) } : {}),
    '4xx': ref('Error'),
    '5xx': ref('Error'),
  };
}
