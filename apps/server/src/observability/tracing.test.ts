import { randomBytes } from 'node:crypto';
import { CustomersClient } from '@customers-api/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../test/otlp-receiver.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';

const SERVER = 2;

describe.each(DIALECTS)('traces to an OTLP/HTTP collector on %s', (dialect) => {
  let database: TestDatabase;
  let collector: OtlpReceiver;
  let webhooks: WebhookReceiver;
  let server: ServeProcess;
  let apiKey: string;
  const env = { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    collector = await startOtlpReceiver();
    webhooks = await startWebhookReceiver();
    const cli = async (...argv: string[]) => {
      let out = '';
      let err = '';
      if ((await runCli([...argv, '--json', '--database', database.url], { out: (t) => (out += t), err: (t) => (err += t), env })) !== 0) throw new Error(err);
      return JSON.parse(out);
    };
    const seller = await cli('sellers', 'create', '--name', 'Traced', '--customer-limit', '1000');
    apiKey = (await cli('keys', 'create', '--seller', seller.id, '--name', 't')).key;
    await cli('webhooks', 'create', '--seller', seller.id, '--url', webhooks.url);
    server = await serve(database.url, ['--allow-private-webhooks', '--trust-traceparent'], {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'customers-api-test',
      // Export each batch at once rather than every 5 seconds.
      OTEL_BSP_SCHEDULE_DELAY: '10',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await webhooks?.close();
    await collector?.close();
    await database?.dispose();
  });

  it('with --trust-traceparent, continues the traceparent of a create, with database child spans and a delivery span linked to the request', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const client = new CustomersClient({ apiKey, baseUrl: server.url });
    const created = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: `ada.${parentId}@example.com` }, { headers: { traceparent: `00-${traceId}-${parentId}-01` } });

    const requestSpan = (spans: ReceivedSpan[]) =>
      spans.find((span) => span.traceId === traceId && span.kind === SERVER && span.parentSpanId === parentId);
    const deliverySpan = (spans: ReceivedSpan[]) => {
      const request = requestSpan(spans);
      return request && spans.find((span) => span.name === 'webhook delivery' && span.links.some((link) => link.spanId === request.spanId));
    };
    const spans = await collector.waitUntil((all) => deliverySpan(all) !== undefined);

    const request = requestSpan(spans)!;
    expect(request.attributes['http.route']).toBe('/api/customers');
    expect(request.attributes['http.response.status_code']).toBe(201);
    // Database work of the request: spans of its trace, right below the request span (no handler span repeating
    // the request's in between), with the conventions' attributes; nothing else in the trace.
    const inTrace = spans.filter((span) => span.traceId === traceId);
    const database = inTrace.filter((span) => span.attributes['db.system.name'] !== undefined);
    expect(database.length).toBeGreaterThan(0);
    expect(inTrace.length).toBe(database.length + 1);
    for (const span of database) {
      expect(span.parentSpanId).toBe(request.spanId);
      // Only the request's own statements: the delivery worker it nudged runs outside its trace (issue 35).
      expect(BigInt(span.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(request.endTimeUnixNano));
      expect(span.attributes['db.system.name']).toBe(dialect === 'postgres' ? 'postgresql' : 'sqlite');
      expect(span.attributes['db.operation.name']).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|OTHER)$/);
      // Named as OTel's database conventions say: `{operation} {table}` when a table is named, else the operation.
      const table = span.attributes['db.collection.name'];
      expect(span.name).toBe(table === undefined ? span.attributes['db.operation.name'] : `${String(span.attributes['db.operation.name'])} ${String(table)}`);
    }
    // The request reads its key's row: a span names the table (the create itself is a function call on PostgreSQL).
    expect(database.map((span) => span.name)).toContain('SELECT api_keys');
    // The delivery attempt: its own trace, linked to exactly the request's span.
    const delivery = deliverySpan(spans)!;
    expect(delivery.links).toEqual([{ traceId, spanId: request.spanId }]);
    expect(delivery.attributes).toMatchObject({ 'customers.webhook.event_type': 'customer.created', 'customers.webhook.result': 'delivered', 'http.response.status_code': 204 });
    expect(webhooks.received.some((hook) => hook.event.data.customer.id === created.id)).toBe(true);
    // The request's log line carries its trace.
    const line = server.stdout().split('\n').find((text) => text.includes('"msg":"request"') && text.includes('"path":"/api/customers"'));
    expect(JSON.parse(line!).trace_id).toBe(traceId);
  });
});

describe('traces in http/protobuf (the default protocol)', () => {
  let database: TestDatabase;
  let collector: OtlpReceiver;
  let server: ServeProcess;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    collector = await startOtlpReceiver();
    server = await serve(database.url, ['--trust-traceparent'], { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '10' });
  });
  afterAll(async () => {
    await server?.stop();
    await collector?.close();
    await database?.dispose();
  });

  it('exports the request continuing an incoming traceparent', async () => {
    const traceId = randomBytes(16);
    const response = await fetch(`${server.url}/api/customers`, { headers: { traceparent: `00-${traceId.toString('hex')}-${randomBytes(8).toString('hex')}-01` } });
    expect(response.status).toBe(401);
    // Without a protobuf decoder: the trace id's 16 bytes are in the export exactly when a span of that trace is.
    const traced = () => collector.protobufBodies.some((body) => body.includes(traceId));
    await collector.waitUntil(traced);
    expect(traced()).toBe(true);
  });
});
