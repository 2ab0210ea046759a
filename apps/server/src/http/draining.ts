import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether shutdown has begun: /readyz answers 503 and every answer closes its connection. */
    readonly draining: boolean;
    /**
     * Shutdown's first step, while the listener still accepts: readiness fails at once (a load balancer stops
     * sending), and each answer from now on says `Connection: close`, so keep-alive clients open their next
     * connection elsewhere instead of meeting a socket closed under them when the listener closes.
     */
    beginDraining(): void;
  }
}

/**
 * Adds {@link FastifyInstance.beginDraining}. Costs nothing until it is called: the `Connection: close` listener
 * is added to the Node server then, ahead of Fastify's own (prepended), so the header is set before any answer.
 */
export function registerDraining(app: FastifyInstance): void {
  let draining = false;
  app.decorate('draining', {
    getter: () => draining,
  });
  app.decorate('beginDraining', () => {
    if (draining) return;
    draining = true;
    app.server.prependListener('request', (_request, response) => response.setHeader('connection', 'close'));
  });
}
