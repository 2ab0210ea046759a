import type { Attributes, Span, SpanContext } from '@opentelemetry/api';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { setFlagsFromString } from 'node:v8';
import { TRACING_V8_FLAGS } from '../server/node-flags.js';
import type { DeliveryObserver } from '../webhooks/delivery-worker.js';
import { statementSpanName, type QueryObserver } from './query-observer.js';
import { resourceDetectors } from './resource-detectors.js';
import { conventionalServerSpan, noteClientError } from './server-span.js';
import { setContextBinder, setDetacher, setTraceContextSource } from './trace-context.js';

/** What the server wires in when traces are on. */
export interface Tracing {
  /**
   * @fastify/otel's plugin: a server span per request. An incoming `traceparent` is continued only when the operator
   * trusts it (`--trust-traceparent`); otherwise the request is a new root, linked to the client's span.
   */
  plugin: FastifyPluginCallback;
  /** A child span per database statement of a traced request. */
  queries: QueryObserver;
  /** A span per webhook delivery attempt, linked to the span of the request that made the change. */
  deliveries: DeliveryObserver;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces: an OTLP endpoint is set (and the SDK is not disabled). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim()).includes('none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** What the operator decides beyond the `OTEL_*` variables. */
export interface TracingOptions {
  /**
   * Continue a client's `traceparent`: its sampled flag then decides sampling (with a `parentbased_*` sampler) and
   * its trace id becomes the request's and its outbox rows'. Off (the default), anyone could force tracing cost past
   * the operator's ratio and choose the trace ids stored: the client's span is only a link of a new root.
   */
  trustTraceparent?: boolean;
}

/** Extracts nothing: an untrusted client's trace context never becomes a parent (its span is linked instead). */
const UNTRUSTED_PROPAGATOR = { inject: () => {}, extract: <C>(context: C) => context, fields: () => [] };

/**
 * Starts the OpenTelemetry SDK when the standard `OTEL_*` variables ask for traces (see {@link tracingRequested}),
 * configured by them alone (endpoint, `http/protobuf` or `http/json`, service name, sampler…); otherwise
 * undefined, and the SDK is not even loaded (dynamic imports), so tracing off costs nothing. Metrics stay
 * Prometheus' (observability/metrics.ts): the SDK's metric and log exporters are off unless asked for.
 *
 * @example
 * const tracing = await startTracing(process.env);
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env, { trustTraceparent = false }: TracingOptions = {}): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  // Spans are promoted while they wait for their batch: keep V8 from letting that garbage pile up (node-flags.ts).
  for (const flag of TRACING_V8_FLAGS) setFlagsFromString(flag);
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const [{ NodeSDK, resources }, { FastifyOtelInstrumentation }, api] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@fastify/otel'),
    import('@opentelemetry/api'),
  ]);
  // The span of each request in flight by trace id, so what a request writes links to the request's span rather
  // than to the handler span active at the time.
  const requestSpans = new Map<string, Span>();
  const traceOfRequest = new WeakMap<FastifyRequest, { traceId: string; span: Span }>();
  const fastifyOtel = new FastifyOtelInstrumentation({
    // One server span per request: none per lifecycle hook, and none for the route handler (it would repeat the
    // request span, same start, same end, and be one more span per request to hold until its batch is exported).
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook: (span, request) => {
      conventionalServerSpan(span, request);
      if (!trustTraceparent) {
        const client = spanContextOf(headerValue(request.headers.traceparent));
        if (client && api.isSpanContextValid(client)) span.addLink({ context: client });
      }
      const { traceId } = span.spanContext();
      requestSpans.set(traceId, span);
      // Every log line of the request carries its trace.
      request.log = request.log.child({ trace_id: traceId });
      traceOfRequest.set(request, { traceId, span });
    },
  });
  const forget = (request: FastifyRequest) => {
    const entry = traceOfRequest.get(request);
    if (entry && requestSpans.get(entry.traceId) === entry.span) requestSpans.delete(entry.traceId);
  };
  const otelPlugin = fastifyOtel.plugin() as unknown as FastifyPluginCallback;
  // @fastify/otel's plugin, and the end of each request's entry in requestSpans, on the root app.
  const plugin: FastifyPluginCallback = (instance, _options, done) => {
    instance.addHook('onError', noteClientError);
    instance.register(otelPlugin);
    instance.addHook('onResponse', (request, _reply, next) => {
      forget(request);
      next();
    });
    instance.addHook('onRequestAbort', (request, next) => {
      forget(request);
      next();
    });
    done();
  };
  Object.assign(plugin, { [Symbol.for('skip-override')]: true });
  const sdk = new NodeSDK({
    instrumentations: [fastifyOtel],
    // The process arguments hold database and Redis URLs: the resource carries them only redacted.
    resourceDetectors: resourceDetectors(resources, env),
    ...(trustTraceparent ? {} : { textMapPropagator: UNTRUSTED_PROPAGATOR }),
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: 'customers-api-server' }),
  });
  sdk.start();
  const tracer = api.trace.getTracer('@customers-api/server');

  setTraceContextSource(() => {
    const active = api.trace.getSpan(api.context.active());
    if (!active) return undefined;
    const request = requestSpans.get(active.spanContext().traceId) ?? active;
    return traceparentOf(request.spanContext());
  });

  setContextBinder((fn) => api.context.bind(api.context.active(), fn));
  setDetacher((fn) => api.context.with(api.ROOT_CONTEXT, fn));

  const queries: QueryObserver = (query) => {
    const parent = api.context.active();
    // Background work (the delivery worker's polls) makes no root spans of its own.
    if (!api.trace.getSpan(parent)) return () => {};
    const attributes: Attributes = { 'db.system.name': query.system, 'db.operation.name': query.operation };
    if (query.collection) attributes['db.collection.name'] = query.collection;
    const span = tracer.startSpan(
      statementSpanName(query),
      { kind: api.SpanKind.CLIENT, attributes },
      parent,
    );
    return (error) => {
      if (error) span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.end();
    };
  };

  const deliveries: DeliveryObserver = (delivery) => {
    const link = spanContextOf(delivery.change.trace_context);
    const span = tracer.startSpan(
      'webhook delivery',
      {
        kind: api.SpanKind.CLIENT,
        root: true,
        links: link ? [{ context: link }] : [],
        attributes: {
          'http.request.method': 'POST',
          'customers.webhook.event_id': delivery.change.event_id,
          'customers.webhook.event_type': delivery.change.type,
          'customers.webhook.endpoint_id': delivery.endpointId,
          'customers.webhook.attempt': delivery.attempts + 1,
        },
      },
      api.ROOT_CONTEXT,
    );
    return (end, outcome) => {
      span.setAttribute('customers.webhook.result', end);
      if ('status' in outcome) span.setAttribute('http.response.status_code', outcome.status);
      if (end !== 'delivered') span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'error' in outcome ? outcome.error : end });
      span.end();
    };
  };

  return {
    plugin,
    queries,
    deliveries,
    async shutdown() {
      setTraceContextSource(undefined);
      setContextBinder(undefined);
      setDetacher(undefined);
      await sdk.shutdown();
    },
  };
}

/** One value of a request header (the first of repeated ones), trimmed. */
function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase() ?? null;
}

/** A span context as a W3C traceparent. */
function traceparentOf({ traceId, spanId, traceFlags }: SpanContext): string {
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
}

/** A stored traceparent back as a (remote) span context, for a link. */
function spanContextOf(traceparent: string | null): SpanContext | undefined {
  const match = traceparent ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent) : null;
  if (!match) return undefined;
  return { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16), isRemote: true };
}
