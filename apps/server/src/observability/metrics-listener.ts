import { createServer, type Server } from 'node:http';
import type { ServerMetrics } from './metrics.js';

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close(): Promise<void>;
}

/**
 * The Prometheus scrape target on a listener of its own (`--metrics-port`), never the API's: GET /metrics answers
 * the text exposition format; anything else is a 404 (405 for another method) in the API's error body.
 *
 * @example
 * const listener = await startMetricsListener(metrics, { port: 9464, host: '127.0.0.1' });
 */
export async function startMetricsListener(metrics: ServerMetrics, { port, host }: { port: number; host: string }): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    const fail = (status: number, error: string, message: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(JSON.stringify({ error, message }));
    };
    if (path !== '/metrics') return fail(404, 'Not Found', `No route matches ${path}; metrics are at /metrics`);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return fail(405, 'Method Not Allowed', `${request.method} is not allowed on /metrics; use GET`, { allow: 'GET, HEAD' });
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => fail(500, 'Internal Server Error', 'Could not collect the metrics'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
