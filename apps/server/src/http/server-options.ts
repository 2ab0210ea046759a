import { createServer, type RequestListener, type Server } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { requiringHost } from './missing-host.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeouts } from './timeouts.js';

/**
 * The proxies in front of the server whose forwarded headers are believed: how many hops (1 behind one load
 * balancer; 0 trusts none), or their addresses and CIDRs (`10.0.0.0/8`, `loopback`, …). The client is then the
 * right-most X-Forwarded-For address that is not a trusted proxy, so values a client writes itself are ignored.
 */
export type TrustProxy = number | readonly string[];

/** How the HTTP server treats connections; every field has a safe default. */
export interface HttpServerSettings {
  /** Time for a whole request (headers and body) to arrive; then 408 and the connection is closed. */
  requestTimeoutMs?: number;
  /**
   * Take the client's address from X-Forwarded-For and the browser's host and scheme from X-Forwarded-Host/-Proto
   * when the request comes through these proxies (only behind proxies that set them). None when omitted.
   */
  trustProxy?: TrustProxy;
}

/** Fastify keeps idle keep-alive connections this long (its own default, restated since we build the server). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The Fastify options that shape the HTTP server: bounded request time (a stalled body or header is answered
 * with 408 by client-error.ts), a JSON 400 for HTTP/1.1 requests without Host (missing-host.ts), and whether
 * forwarded headers are trusted (request.host and request.protocol follow them only then).
 *
 * @example
 * Fastify({ ...httpServerOptions({ requestTimeoutMs: 30_000, trustProxy: 1 }) });
 */
export function httpServerOptions(settings: HttpServerSettings = {}) {
  return {
    trustProxy: fastifyTrustProxy(settings.trustProxy ?? 0),
    serverFactory: httpServerFactory(settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
  };
}

/**
 * Fastify's trustProxy for ours. A hop count becomes a function: Fastify trusts no hop for a bare number (it cannot
 * check the peer), while the operator who says "1" means the peer is the load balancer (and the server is not
 * reachable around it, which the README asks for).
 */
function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust.length === 0 ? false : [...trust];
  if (trust === 0) return false;
  return (_address, hop) => hop < trust;
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
