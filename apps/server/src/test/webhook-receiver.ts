import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  event: any;
}

/** How the receiver answers a request: a status (and headers), or never. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT/hooks */
  url: string;
  readonly received: ReceivedWebhook[];
  /** Changes how later requests are answered (204 by default). */
  answerWith(answer: (request: ReceivedWebhook) => ReceiverAnswer): void;
  /** Resolves with every request received once `done` holds for them (checked on each arrival), without polling. */
  waitUntil(done: (received: ReceivedWebhook[]) => boolean): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP endpoint on 127.0.0.1 that records every webhook request it gets.
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * await receiver.waitUntil((all) => all.length === 3);
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  let answer: (request: ReceivedWebhook) => ReceiverAnswer = () => ({ status: 204 });
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: unknown;
      try {
        event = JSON.parse(body);
      } catch {
        event = undefined;
      }
      const entry = { headers: request.headers, body, event };
      received.push(entry);
      const reply = answer(entry);
      if (reply === 'hang') hanging.add(response);
      else response.writeHead(reply.status, reply.headers).end(reply.body ?? '{"received":true}');
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerWith(next) {
      answer = next;
    },
    waitUntil(done) {
      return new Promise((resolve) => {
        const check = () => {
          if (!done(received)) return;
          waiters.delete(check);
          resolve([...received]);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
