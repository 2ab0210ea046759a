import { createServer, type RequestListener, type Server } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { requiringHost } from './missing-host.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeouts } from './timeouts.js';

/** How the HTTP server treats connections; every field has a safe default. */
export interface HttpServerSettings {
  /** Time for a whole request (headers and body) to arrive; then 408 and the connection is closed. */
  requestTimeoutMs?: number;
  /** Take the browser's host and scheme from X-Forwarded-Host/-Proto (only behind a proxy that sets them). */
  trustProxy?: boolean;
}

/** Fastify keeps idle keep-alive connections this long (its own default, restated since we build the server). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The Fastify options that shape the HTTP server: bounded request time (a stalled body or header is answered
 * with 408 by client-error.ts), a JSON 400 for HTTP/1.1 requests without Host (missing-host.ts), and whether
 * forwarded headers are trusted (request.host and request.protocol follow them only then).
 *
 * @example
 * Fastify({ ...httpServerOptions({ requestTimeoutMs: 30_000, trustProxy: false }) });
 */
export function httpServerOptions(settings: HttpServerSettings = {}) {
  return {
    trustProxy: settings.trustProxy ?? false,
    serverFactory: httpServerFactory(settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
  };
}

function httpServerFactory(requestTimeoutMs: number): FastifyServerFactory {
  const timeouts = requestTimeouts(requestTimeoutMs);
  return (handler) => {
    const server: Server = createServer(
      {
        requireHostHeader: false,
        headersTimeout: timeouts.requestTimeout,
        requestTimeout: timeouts.requestTimeout,
        connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
      },
      requiringHost(handler as RequestListener),
    );
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.setTimeout(timeouts.socketTimeout);
    return server;
  };
}
