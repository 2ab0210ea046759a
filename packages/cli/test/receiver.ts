import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';

/** A request the receiver got: its headers and raw body. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver on 127.0.0.1 answering `status` to every POST, keeping what it got. */
export async function startReceiver(status = 200) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(status).end();
    for (const wake of waiters.splice(0)) wake();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`${received.length} of ${count} requests after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
