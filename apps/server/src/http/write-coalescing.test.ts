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

/** What a hook after the coalescing one is given as the payload of a reply of `size` characters, and what the client reads. */
async function payloadOf(
  size: number,
): Promise<{ type: string; body: string; length: string | undefined; contentType: string | undefined; head: { body: string; length: unknown } }> {
  const app = Fastify();
  registerWriteCoalescing(app);
  let type = '';
  app.addHook('onSend', (_request, _reply, payload, done) => {
    type = Buffer.isBuffer(payload) ? 'buffer' : typeof payload;
    done(null, payload);
  });
  app.get('/', async () => ({ text: 'é'.repeat(size) }));
  const response = await app.inject({ method: 'GET', url: '/' });
  const head = await app.inject({ method: 'HEAD', url: '/' });
  await app.close();
  return {
    head: { body: head.body, length: head.headers['content-length'] },
    type,
    body: response.body,
    length: response.headers['content-length'] as string | undefined,
    contentType: response.headers['content-type'] as string | undefined,
  };
}

describe('write coalescing', () => {
  it("keeps a large reply's bytes off the JS heap while it waits (a page of customers), small ones as they are", async () => {
    const large = await payloadOf(4096);
    expect(large.type).toBe('buffer');
    expect(JSON.parse(large.body)).toEqual({ text: 'é'.repeat(4096) });
    expect(large.length).toBe(String(Buffer.byteLength(large.body)));
    expect(large.contentType).toBe('application/json; charset=utf-8');
    expect(large.head).toEqual({ body: '', length: large.length });
    const small = await payloadOf(10);
    expect(small.type).toBe('string');
    expect(JSON.parse(small.body)).toEqual({ text: 'é'.repeat(10) });
    expect(small.length).toBe(String(Buffer.byteLength(small.body)));
  });

  it('writes a reply at the end of the turn that produced it, not in the middle of it', async () => {
    expect(await orderOf(false)).toEqual(['reply written', 'end of turn']);
    expect(await orderOf(true)).toEqual(['end of turn', 'reply written']);
  });
});
