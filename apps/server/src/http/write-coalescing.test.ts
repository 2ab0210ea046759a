import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerWriteCoalescing } from './write-coalescing.js';

/** The order in which a reply's end and work scheduled by its handler for the end of the turn happen. */
async function orderOf(coalesce: boolean): Promise<string[]> {
  const app = Fastify();
  if (coalesce) registerWriteCoalescing(app);
  const order: string[] = [];
  app.addHook('onRequest', (_request, reply, done) => {
    const end = reply.raw.end.bind(reply.raw) as (...args: unknown[]) => unknown;
    reply.raw.end = ((...args: unknown[]) => {
      order.push('reply written');
      return end(...args);
    }) as typeof reply.raw.end;
    done();
  });
  app.get('/', async () => {
    setImmediate(() => order.push('end of turn'));
    return { ok: true };
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  expect(response.json()).toEqual({ ok: true });
  await new Promise((resolve) => setImmediate(resolve)); // let the handler's end-of-turn work run in any case
  await app.close();
  return order;
}

describe('write coalescing', () => {
  it('writes a reply at the end of the turn that produced it, not in the middle of it', async () => {
    expect(await orderOf(false)).toEqual(['reply written', 'end of turn']);
    expect(await orderOf(true)).toEqual(['end of turn', 'reply written']);
  });
});
