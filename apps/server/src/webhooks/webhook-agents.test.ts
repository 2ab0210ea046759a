import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendWebhook } from './send-webhook.js';
import { WebhookAgents } from './webhook-agents.js';

let server: Server | undefined;
let agents: WebhookAgents | undefined;
afterEach(async () => {
  agents?.destroy();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A receiver on 127.0.0.1 answering 204, counting the connections it accepted. */
async function receiver(): Promise<{ port: number; connections: () => number; remotes: Set<Socket> }> {
  const remotes = new Set<Socket>();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  server.on('connection', (socket) => remotes.add(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => remotes.size, remotes };
}

const attempt = (url: string, extra: Partial<Parameters<typeof sendWebhook>[0]> = {}) =>
  sendWebhook({ url, body: '{}', headers: {}, timeoutMs: 10_000, allowPrivate: true, agents, ...extra });

describe('webhook attempts over kept-alive sockets', () => {
  it('sends one after another over one connection to the same origin and checked address', async () => {
    const { port, connections } = await receiver();
    agents = new WebhookAgents();
    for (let i = 0; i < 5; i++) expect(await attempt(`http://127.0.0.1:${port}/hooks/${i}`)).toMatchObject({ status: 204, acknowledged: true, body: '' });
    expect(connections()).toBe(1);
    expect(agents.size).toBe(1);
  });

  it('opens a connection per attempt without the agents (as before)', async () => {
    const { port, connections } = await receiver();
    for (let i = 0; i < 3; i++) await sendWebhook({ url: `http://127.0.0.1:${port}/`, body: '{}', headers: {}, timeoutMs: 10_000, allowPrivate: true });
    expect(connections()).toBe(3);
  });

  it('never connects a name to another address than the one it was checked for: a new answer is a new agent', async () => {
    const { port, connections } = await receiver();
    agents = new WebhookAgents();
    const url = new URL(`http://hooks.invalid:${port}/`);
    // The receiver listens on 127.0.0.1 only: the agent for 127.0.0.2 must not borrow the first agent's socket.
    const first = agents.agentFor(url, { address: '127.0.0.1', family: 4 });
    const other = agents.agentFor(url, { address: '127.0.0.2', family: 4 });
    expect(other).not.toBe(first);
    expect(agents.agentFor(url, { address: '127.0.0.1', family: 4 })).toBe(first);
    const post = (agent: typeof first) =>
      new Promise<number | string>((resolve) => {
        import('node:http').then(({ request }) => {
          const req = request(url, { method: 'POST', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
          req.end('{}');
        });
      });
    expect(await post(first)).toBe(204);
    expect(await post(other)).toBe('ECONNREFUSED');
    expect(await post(first)).toBe(204);
    expect(connections()).toBe(1);
  });

  it('keeps the guard: a name resolving only to private addresses is refused before any connection', async () => {
    agents = new WebhookAgents();
    const outcome = await attempt('http://localhost:9/hooks', { allowPrivate: false });
    expect(outcome).toEqual({ error: 'Resolves only to non-public addresses', detail: expect.stringMatching(/^localhost resolves to /) });
    expect(agents.size).toBe(0);
  });

  it('sends again on a new connection when a kept-alive one is reset before any answer (at least once, as always)', async () => {
    const { port, connections } = await receiver();
    server!.removeAllListeners('request');
    const served = new WeakMap<object, number>();
    server!.on('request', (req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      // The receiver drops its kept-alive connection as the second request arrives (a keep-alive timeout's race).
      if (n === 2) return req.socket.resetAndDestroy();
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    agents = new WebhookAgents();
    expect(await attempt(`http://127.0.0.1:${port}/`)).toMatchObject({ status: 204 });
    expect(await attempt(`http://127.0.0.1:${port}/`)).toMatchObject({ status: 204 });
    expect(connections()).toBe(2);
  });

  it('closes a connection whose answer was cut at the kept 2 KiB (never reused half-read)', async () => {
    const { port } = await receiver();
    server!.removeAllListeners('request');
    let requests = 0;
    server!.on('request', (req, res) => {
      requests++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(64 * 1024));
    });
    agents = new WebhookAgents();
    const connections: number[] = [];
    server!.on('connection', () => connections.push(requests));
    for (let i = 0; i < 2; i++) expect(await attempt(`http://127.0.0.1:${port}/`)).toMatchObject({ status: 200, acknowledged: true });
    expect(connections).toHaveLength(2);
  });
});
