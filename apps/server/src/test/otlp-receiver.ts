import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it (ids in hex), with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The names of its events (`exception` for a recorded error). */
  events: string[];
  /** Start and end, in nanoseconds since the epoch (as decimal strings, to keep their precision). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:PORT: the OTEL_EXPORTER_OTLP_ENDPOINT (the exporter posts to /v1/traces). */
  url: string;
  readonly spans: ReceivedSpan[];
  /** Exports in `http/protobuf`, undecoded (a test can still look for a trace id's 16 bytes in them). */
  readonly protobufBodies: Buffer[];
  /** Resolves with every span received once `done` holds for them (checked on each export), without polling. */
  waitUntil(done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

function valueOf(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

/**
 * A local OTLP/HTTP collector for traces: decodes the `http/json` encoding into spans, keeps `http/protobuf`
 * exports as they came, and answers 200 with an empty partial-success body, like a real collector.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * await receiver.waitUntil((spans) => spans.some((span) => span.kind === 2));
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const protobufBodies: Buffer[] = [];
  const waiters: { done: (spans: ReceivedSpan[]) => boolean; resolve: (spans: ReceivedSpan[]) => void }[] = [];
  const check = () => {
    for (const waiter of [...waiters]) {
      if (!waiter.done(spans)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve([...spans]);
    }
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const type = String(request.headers['content-type']);
      if (request.url === '/v1/traces' && type.startsWith('application/x-protobuf')) {
        protobufBodies.push(Buffer.concat(chunks));
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        check();
        return;
      }
      if (request.url !== '/v1/traces' || !type.startsWith('application/json')) {
        response.writeHead(415).end();
        return;
      }
      const payload = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans?: { scopeSpans?: { spans?: any[] }[] }[] };
      for (const resource of payload.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: Object.fromEntries((span.attributes ?? []).map((a: { key: string; value: AnyValue }) => [a.key, valueOf(a.value)])),
              links: (span.links ?? []).map((link: { traceId: string; spanId: string }) => ({ traceId: link.traceId, spanId: link.spanId })),
              statusCode: span.status?.code ?? 0,
              events: (span.events ?? []).map((event: { name: string }) => event.name),
              startTimeUnixNano: String(span.startTimeUnixNano),
              endTimeUnixNano: String(span.endTimeUnixNano),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    protobufBodies,
    waitUntil: (done) =>
      new Promise((resolve) => {
        waiters.push({ done, resolve });
        check();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
