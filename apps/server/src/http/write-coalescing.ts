import type { FastifyInstance } from 'fastify';

/**
 * Sends every reply at the end of the event-loop turn that produced it, right after the others of that turn,
 * instead of in the middle of computing them. Under load one turn answers many connections; written back to back,
 * their clients are woken once per burst instead of once per reply. On loopback (a proxy or client on the same
 * host) each wake-up is paid by the sender inside its socket write: profiled at about 40% of a GET's CPU on our
 * 2-core VMs, and the main difference between this server and bare Fastify (BENCHMARKS.md). A reply waits at most
 * for the rest of its turn's work, which it would otherwise have waited for on its next read; with one request in
 * a turn nothing changes but a `setImmediate`.
 */
export function registerWriteCoalescing(app: FastifyInstance): void {
  // After the request id hook, so the headers are complete; a callback hook (no promise per reply).
  app.addHook('onSend', (_request, _reply, payload, done) => {
    setImmediate(done, null, payload);
  });
}
