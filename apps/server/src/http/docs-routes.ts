import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { OpenApiDocument } from '../openapi-document.js';
import { DOCS_CONTENT_SECURITY_POLICY, registerSecurityHeaders } from './security-headers.js';

/**
 * The contract as served: GET /openapi.yaml (verbatim), GET /openapi.json, and an interactive reference at
 * /docs (Swagger UI, all assets bundled: works offline). The reference's "try it" calls this server.
 */
export async function registerDocsRoutes(
  app: FastifyInstance,
  { text, document }: { text: string; document: OpenApiDocument },
): Promise<void> {
  app.get('/openapi.yaml', async (_request, reply) => reply.type('application/yaml; charset=utf-8').send(text));
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(document)));

  const forThisServer = structuredClone(document);
  forThisServer.servers = [{ url: '/', description: 'This server' }, ...(document.servers ?? [])];
  await app.register(swagger, { mode: 'static', specification: { document: forThisServer as never } });
  // In a scope of its own, so that the reference and its assets carry the security headers the dashboard has.
  await app.register(async (docs) => {
    registerSecurityHeaders(docs, DOCS_CONTENT_SECURITY_POLICY);
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { validatorUrl: null, tryItOutEnabled: true, deepLinking: true },
    });
  });
}
