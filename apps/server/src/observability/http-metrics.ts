import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from './metrics.js';

/** The limit a 429 came from, by the policy its RateLimit-Policy names (a fixed set: a label must stay bounded). */
export function limitOf(policy: unknown): 'seller' | 'unauthenticated' | 'other' {
  const name = /^"([^"]*)"/.exec(String(policy ?? ''))?.[1];
  return name === 'seller' || name === 'unauthenticated' ? name : 'other';
}

/** The route label of a request no route matched: one fixed value, so probing paths cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The request's scheme as a bounded label: `https` only when a trusted proxy says so, `http` otherwise. */
export function schemeOf(protocol: string): 'http' | 'https' {
  return protocol === 'https' ? 'https' : 'http';
}

/**
 * Counts every request of the app in the HTTP metrics: active requests, and on the response its duration by
 * method, route template and status, and a 429 by the limit that sent it (named by its RateLimit-Policy).
 * Callback hooks: an async one costs a promise and a microtask per request.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook('onRequest', (_request, _reply, done) => {
    metrics.requestStarted();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.requestEnded();
    const status = reply.statusCode;
    const route = request.routeOptions.url || UNMATCHED_ROUTE;
    metrics.requestFinished(request.method, route, status, reply.elapsedTime / 1000, schemeOf(request.protocol));
    if (status === 429) metrics.rateLimited(limitOf(reply.getHeader('ratelimit-policy')));
    done();
  });
}
