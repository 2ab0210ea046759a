// What the floors share with the server without being part of it: openapi.yaml's component schemas (responses
// serialized by the same schemas, like the server's routes) and the server's own dependencies (`yaml`, `ioredis`),
// resolved from the server package so this private package needs no copies of them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** `require` as the server package sees it. */
export const requireFromServer = createRequire(import.meta.resolve('@customers-api/server'));

/**
 * Registers openapi.yaml's component schemas with a Fastify app under the id the server uses, and returns a
 * `$ref` to one of them: the floors serialize with the contract, exactly as the server's routes do.
 */
export function registerOpenApiSchemas(app) {
  const { parse } = requireFromServer('yaml');
  const document = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'));
  app.addSchema({ $id: 'openapi', components: { schemas: document.components.schemas } });
  return (name) => ({ $ref: `openapi#/components/schemas/${name}` });
}

/** The list's cursor: the last row's position, base64url JSON (the server's also carries a version and a scope). */
export function cursorOf(createdAt, id) {
  return Buffer.from(JSON.stringify({ c: createdAt, i: id })).toString('base64url');
}
