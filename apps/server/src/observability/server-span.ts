import type { Span } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

/** `SpanStatusCode.ERROR`, without loading the API package here (tracing off loads no OpenTelemetry code). */
const STATUS_ERROR = 2;

/** Requests whose error is the client's (a status below 500): their span stays unset, as OTel's HTTP rules say. */
const clientErrors = new WeakSet<FastifyRequest>();

/** The status an error answers with: Fastify's `statusCode`, core's `status`, else 500. */
function statusOf(error: unknown): number {
  const { statusCode, status } = (error ?? {}) as { statusCode?: unknown; status?: unknown };
  const value = typeof statusCode === 'number' ? statusCode : status;
  return typeof value === 'number' ? value : 500;
}

/**
 * An `onError` hook that notes a client error (4xx) before @fastify/otel's own hook marks the span (ours runs
 * first: @fastify/otel adds its hook last on each route).
 */
export function noteClientError(request: FastifyRequest, _reply: unknown, error: unknown, done: () => void): void {
  if (statusOf(error) < 500) clientErrors.add(request);
  done();
}

/**
 * Names the request's server span and sets its attributes by the OpenTelemetry HTTP conventions, where
 * @fastify/otel does not: `{method} {route}` (just `{method}` when no route matched), `url.path` without the query
 * string (which may carry a sign-in token), and no ERROR status or exception event for a 4xx (a 5xx keeps both).
 *
 * @example
 * requestHook: (span, request) => conventionalServerSpan(span, request)
 */
export function conventionalServerSpan(span: Span, request: FastifyRequest): void {
  const route = request.routeOptions.url;
  span.updateName(route ? `${request.method} ${route}` : request.method);
  span.setAttribute('url.path', (request.url ?? '').split('?', 1)[0]!);
  const setStatus = span.setStatus.bind(span);
  const recordException = span.recordException.bind(span);
  span.setStatus = (status) => (status.code === STATUS_ERROR && clientErrors.has(request) ? span : setStatus(status));
  span.recordException = (exception, time) => (clientErrors.has(request) ? undefined : recordException(exception, time));
}
