// A client's traceparent is a link, not a command (issue 36): without --trust-traceparent it decides no sampling and
// no stored trace id; the request is a new root whose span links to the client's.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';

const SERVER = 2;
const env = { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') };
const OTEL = (collector: OtlpReceiver, more: Record<string, string> = {}) => ({
  ...env,
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '10',
  ...more,
});
const sampledTraceparent = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });

let database: TestDatabase;
let apiKey: string;
let webhooks: WebhookReceiver;

beforeAll(async () => {
  [database, webhooks] = await Promise.all([createTestDatabase('sqlite'), startWebhookReceiver()]);
  const cli = async (...argv: string[]) => {
    let out = '';
    let err = '';
    if ((await runCli([...argv, '--json', '--database', database.url], { out: (t) => (out += t), err: (t) => (err += t), env })) !== 0) throw new Error(err);
    return JSON.parse(out);
  };
  const seller = await cli('sellers', 'create', '--name', 'Traced', '--customer-limit', '1000');
  apiKey = (await cli('keys', 'create', '--seller', seller.id, '--name', 't')).key;
  await cli('webhooks', 'create', '--seller', seller.id, '--url', webhooks.url);
});
afterAll(async () => {
  await webhooks?.close();
  await database?.dispose();
});

/** 20 requests, each with its own sampled traceparent: creates, a 401 and 404s, as the attack sent them. */
async function sendTraced(server: ServeProcess): Promise<string[]> {
  const traceIds: string[] = [];
  for (let n = 0; n < 20; n++) {
    const { traceId, spanId } = sampledTraceparent();
    traceIds.push(traceId);
    const headers = { traceparent: `00-${traceId}-${spanId}-01`, 'Content-Type': 'application/json', 'X-API-Key': n % 5 === 1 ? `sk_live_${'z'.repeat(48)}` : apiKey };
    const path = n % 5 === 2 ? '/api/customers/00000000-0000-7000-8000-000000000000' : '/api/customers';
    const body = path === '/api/customers' ? JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email: `ada.${traceId}@example.com` }) : undefined;
    await fetch(`${server.url}${path}`, { method: body ? 'POST' : 'GET', headers, ...(body && { body }) });
  }
  return traceIds;
}

describe('OTEL_TRACES_SAMPLER=parentbased_traceidratio with ratio 0 and clients sending sampled traceparents', () => {
  const sampler = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };

  it('exports nothing by default, and (for contrast) the clients’ traces with --trust-traceparent', { timeout: 180_000 }, async () => {
    const collector = await startOtlpReceiver();
    try {
      const untrusted = await serve(database.url, ['--allow-private-webhooks'], OTEL(collector, sampler));
      await sendTraced(untrusted);
      // Stopping flushes every span the SDK holds (a batch export on shutdown): after it, nothing more can come.
      expect(await untrusted.stop()).toBe(0);
      expect(collector.spans).toEqual([]);

      const trusted = await serve(database.url, ['--allow-private-webhooks', '--trust-traceparent'], OTEL(collector, sampler));
      const traceIds = await sendTraced(trusted);
      expect(await trusted.stop()).toBe(0);
      const exported = new Set(collector.spans.filter((span) => span.kind === SERVER).map((span) => span.traceId));
      expect(traceIds.filter((id) => exported.has(id))).toEqual(traceIds);
    } finally {
      await collector.close();
    }
  });
});

describe('an untrusted traceparent with the default sampler', () => {
  let collector: OtlpReceiver;
  let server: ServeProcess;
  beforeAll(async () => {
    collector = await startOtlpReceiver();
    server = await serve(database.url, ['--allow-private-webhooks'], OTEL(collector));
  });
  afterAll(async () => {
    await server?.stop();
    await collector?.close();
  });

  it('is a span link of a new root, and the outbox keeps the server’s trace, never the client’s', async () => {
    const { traceId, spanId } = sampledTraceparent();
    const headers = { traceparent: `00-${traceId}-${spanId}-01`, 'Content-Type': 'application/json', 'X-API-Key': apiKey };
    const email = `grace.${traceId}@example.com`;
    const created = await fetch(`${server.url}/api/customers`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Grace', last_name: 'Hopper', email }) });
    expect(created.status).toBe(201);
    const requestOf = (spans: ReceivedSpan[]) => spans.find((span) => span.kind === SERVER && span.links.some((link) => link.spanId === spanId));
    const deliveryOf = (spans: ReceivedSpan[]) => {
      const request = requestOf(spans);
      return request && spans.find((span) => span.name === 'webhook delivery' && span.links.some((link) => link.spanId === request.spanId));
    };
    const spans = await collector.waitUntil((all) => deliveryOf(all) !== undefined);
    const request = requestOf(spans)!;
    expect(request.links).toEqual([{ traceId, spanId }]);
    expect(request.traceId).not.toBe(traceId);
    expect(request.parentSpanId).toBe('');
    // The delivery links to the server's request span: the stored trace context was the server's.
    expect(deliveryOf(spans)!.links).toEqual([{ traceId: request.traceId, spanId: request.spanId }]);
    expect(spans.some((span) => span.traceId === traceId)).toBe(false);
  });

  it('names the server span {method} {route}, keeps the query out of url.path, and leaves a 4xx unset (a 5xx would be ERROR)', async () => {
    const headers = { 'X-API-Key': apiKey };
    expect((await fetch(`${server.url}/api/customers/00000000-0000-7000-8000-000000000000?token=s3cret`, { headers })).status).toBe(404);
    expect((await fetch(`${server.url}/no/such/route?token=s3cret`)).status).toBe(404);
    const byPath = (spans: ReceivedSpan[], path: string) => spans.find((span) => span.kind === SERVER && span.attributes['url.path'] === path);
    const spans = await collector.waitUntil((all) => byPath(all, '/no/such/route') !== undefined && byPath(all, '/api/customers/00000000-0000-7000-8000-000000000000') !== undefined);
    const found = byPath(spans, '/api/customers/00000000-0000-7000-8000-000000000000')!;
    expect(found.name).toBe('GET /api/customers/:id');
    expect([found.statusCode, found.events]).toEqual([0, []]);
    const unmatched = byPath(spans, '/no/such/route')!;
    expect(unmatched.name).toBe('GET');
    expect([unmatched.statusCode, unmatched.events]).toEqual([0, []]);
    expect(JSON.stringify(spans.filter((span) => span.kind === SERVER).map((span) => span.attributes))).not.toContain('s3cret');
  });
});
