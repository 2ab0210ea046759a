import type { FastifyInstance } from 'fastify';
import { pathOf } from './request-target.js';

/** One log line per request, after the response: id (via the child logger), method, path, status, time. */
export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook: an async one costs a promise and a microtask per request.
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        path: pathOf(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
}
