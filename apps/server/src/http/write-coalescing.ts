import type { FastifyInstance } from 'fastify';

/**
 * Replies longer than this (in UTF-16 code units) wait as bytes outside V8's heap: a page of customers (about 10 KB
 * for 20) but not a single customer or an error body (under 1 KB), for which the copy would cost more than it saves.
 */
const OFF_HEAP_PAYLOAD_LENGTH = 2048;

/**
 * Sends every reply at the end of the event-loop turn that produced it, right after the others of that turn,
 * instead of in the middle of computing them. Under load one turn answers many connections; written back to back,
 * their clients are woken once per burst instead of once per reply. On loopback (a proxy or client on the same
 * host) each wake-up is paid by the sender inside its socket write: profiled at about 40% of a GET's CPU on our
 * 2-core VMs, and the main difference between this server and bare Fastify (BENCHMARKS.md). A reply waits at most
 * for the rest of its turn's work, which it would otherwise have waited for on its next read; with one request in
 * a turn nothing changes but a `setImmediate`.
 *
 * A large reply waits as a Buffer (its bytes outside the JS heap): a turn holds up to one reply per connection,
 * and as strings 50 pages of customers were what V8's young-generation collections found alive, copied and then
 * promoted (`--trace-gc-nvp` under the list load: 850 KB survived each scavenge and 85-180 KB were promoted, against
 * 280 KB and 2 KB as Buffers; SQLite list 268 → 233 µs of CPU per page, BENCHMARKS.md). Same bytes on the wire:
 * Fastify takes a Buffer's length as Content-Length.
 */
export function registerWriteCoalescing(app: FastifyInstance): void {
  // After the request id hook, so the headers are complete; a callback hook (no promise per reply).
  app.addHook('onSend', (_request, _reply, payload, done) => {
    setImmediate(done, null, typeof payload === 'string' && payload.length > OFF_HEAP_PAYLOAD_LENGTH ? Buffer.from(payload) : payload);
  });
}
