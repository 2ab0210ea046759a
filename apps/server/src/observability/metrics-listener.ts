import { createServer, type Server } from 'node:http';
import { clientErrorHandler } from '../http/client-error.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeouts } from '../http/timeouts.js';
import type { ServerMetrics } from './metrics.js';
import { hostNameOf, ownHostNames } from './own-host-names.js';

export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close(): Promise<void>;
}

/**
 * The Prometheus scrape target on a listener of its own (`--metrics-port`), never the API's: GET /metrics answers
 * the text exposition format; anything else is a 404 (405 for another method) in the API's error body. It keeps
 * the API's request deadline (`requestTimeoutMs`: a request stalled past it is a 408 and closed) and answers only
 * its own `Host` names ({@link ownHostNames}; another is a 421), so a web page cannot read it through DNS rebinding.
 *
 * @example
 * const listener = await startMetricsListener(metrics, { port: 9464, host: '127.0.0.1', requestTimeoutMs: 30_000 });
 */
export async function startMetricsListener(
  metrics: ServerMetrics,
  { port, host, requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS }: { port: number; host: string; requestTimeoutMs?: number },
): Promise<MetricsListener> {
  const timeouts = requestTimeouts(requestTimeoutMs);
  const names = ownHostNames(host);
  const options = { headersTimeout: timeouts.requestTimeout, requestTimeout: timeouts.requestTimeout, connectionsCheckingInterval: timeouts.connectionsCheckingInterval };
  const server: Server = createServer(options, (request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    const fail = (status: number, error: string, message: string, headers: Record<string, string> = {}) => {
      const body = JSON.stringify({ error, message });
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
      response.end(body);
    };
    const name = hostNameOf(request.headers.host);
    if (name === undefined || !names.has(name)) {
      return fail(421, 'Misdirected Request', `The metrics listener answers only this machine's own names and addresses as Host (got ${name ?? 'none'})`);
    }
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
  server.setTimeout(timeouts.socketTimeout);
  // A stalled request gets the API's 408 in its error shape, and the connection is closed.
  server.on('clientError', clientErrorHandler);
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
