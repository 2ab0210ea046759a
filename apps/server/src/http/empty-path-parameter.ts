import type { FastifyInstance } from 'fastify';
import { answerFromCore, handleError, type CoreHandler } from './error-handling.js';

/**
 * Core's router gives a path parameter only to a non-empty segment: `/api/customers/` is no route (404, checked
 * before the version and the key), where Fastify's router matches `/api/customers/:id` with an empty id. Such a
 * request is core's to answer, as MSW and the HTTP mock answer it; register this before every other hook of the
 * API's scope. A callback hook: one loop over the parameters, no promise, on every other request.
 */
export function registerEmptyPathParameter(app: FastifyInstance, core: CoreHandler): void {
  app.addHook('onRequest', function emptyPathParameter(request, reply, done) {
    const params = request.params as Record<string, string>;
    for (const name in params) {
      if (params[name] === '') {
        answerFromCore(core, request, reply).catch((error: unknown) => handleError(error, request, reply));
        return;
      }
    }
    done();
  });
}
