import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to one request: pass it on, lose the server's answer, or answer 503 itself. */
export type Fault = 'pass' | 'lose-response' | 'unavailable';

export interface FaultyProxy {
  url: string;
  /** Every request seen: method, path, its Idempotency-Key and all its headers, in order. */
  seen: Array<{ method: string; path: string; idempotencyKey: string | undefined; fault: Fault; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of a real server, which fails requests on purpose: `plan(n)` picks the
 * fault for the n-th request (0-based). `lose-response` forwards the request, waits until the server has answered
 * (so the write happened), then cuts the client's connection: the caller never learns the outcome.
 */
export async function startFaultyProxy(target: string, plan: (n: number) => Fault): Promise<FaultyProxy> {
  const seen: FaultyProxy['seen'] = [];
  const upstream = new URL(target);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const fault = plan(seen.length);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    seen.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey, fault, headers: req.headers });

    if (fault === 'unavailable') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': `proxy_${seen.length}` });
      res.end(JSON.stringify({ error: 'Service Unavailable', message: 'injected by the test proxy' }));
      return;
    }
    const out = forward(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (fault === 'lose-response') {
          answer.resume();
          answer.on('end', () => res.socket?.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.socket?.destroy());
    req.pipe(out);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
