import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export const key = (c: string) => `sk_live_${c.repeat(48)}`;
export const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request over node:http, for what fetch refuses (TRACE, CONNECT-like methods, bodies that never end):
 * resolves with the response, or rejects when the connection fails.
 */
export function raw(url: string, method: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // A framed body whatever the method: Node sends a GET's or DELETE's body unframed without Content-Length.
    const length = body === undefined || Object.keys(headers).some((name) => name.toLowerCase() === 'content-length') ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const req = httpRequest(url, { method, headers: { ...length, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One request a {@link Receiver} got. */
export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A real webhook receiver on node:http: records every request and answers with `reply` (default 204). */
export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` requests in all have arrived (at once if they have). */
  waitFor(count: number): Promise<Received[]>;
  /** What the next requests are answered with (status, and headers such as Location). */
  reply: (request: Received) => { status: number; headers?: Record<string, string> } | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(path = '/webhooks'): Promise<Receiver> {
  const waits: Array<{ count: number; resolve: (received: Received[]) => void }> = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    waitFor: (count) =>
      receiver.received.length >= count ? Promise.resolve(receiver.received) : new Promise((resolve) => waits.push({ count, resolve })),
    reply: () => ({ status: 204 }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      const got: Received = { method: req.method!, path: req.url!, headers, body };
      receiver.received.push(got);
      const answer = receiver.reply(got);
      if (answer !== 'hang') res.writeHead(answer.status, answer.headers).end();
      for (const wait of waits.filter((w) => receiver.received.length >= w.count)) {
        waits.splice(waits.indexOf(wait), 1);
        wait.resolve(receiver.received);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
