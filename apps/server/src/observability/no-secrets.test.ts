// Credentials in the database and Redis URLs never reach telemetry: not the exported spans (whose resource repeats
// the command line), not the logs, not /metrics, not /readyz (issue 35).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOtlpReceiver, type OtlpReceiver } from '../test/otlp-receiver.js';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';

describe('a server started with credentials in its database and Redis URLs', () => {
  let database: TestDatabase;
  let redis: TestRedis;
  let collector: OtlpReceiver;
  let server: ServeProcess;
  let metricsUrl: string;
  const redisPassword = `redis-secret-${randomBytes(6).toString('hex')}`;
  let secrets: string[];

  beforeAll(async () => {
    [database, redis, collector] = await Promise.all([createTestDatabase('postgres'), startRedisServer({ password: redisPassword }), startOtlpReceiver()]);
    secrets = [decodeURIComponent(new URL(database.url).password), redisPassword];
    server = await serve(database.url, ['--redis', redis.url, '--rate-limit', '100', '--metrics-port', '0'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '10',
    });
    metricsUrl = JSON.parse(server.stdout().split('\n').find((line) => line.includes('"msg":"metrics listening"'))!).url;
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all([collector?.close(), redis?.stop(), database?.dispose()]);
  });

  it('exports spans, writes logs and answers /metrics and /readyz without them', async () => {
    const traceId = randomBytes(16);
    const traceparent = `00-${traceId.toString('hex')}-${randomBytes(8).toString('hex')}-01`;
    expect((await fetch(`${server.url}/api/customers`, { headers: { traceparent, 'X-API-Key': `sk_live_${'a'.repeat(48)}` } })).status).toBe(401);
    // http/protobuf: strings travel as their UTF-8 bytes, so a password in any attribute would be found as is.
    await collector.waitUntil(() => collector.protobufBodies.some((body) => body.includes('process.command_args')));
    const readyz = await (await fetch(`${server.url}/readyz`)).text();
    const metrics = await (await fetch(metricsUrl)).text();
    await server.stop();
    const exported = Buffer.concat(collector.protobufBodies);
    // The command line is still there, redacted: the database's host, without its user and password.
    expect(exported.includes(`--database`)).toBe(true);
    expect(exported.includes(`postgres://127.0.0.1:${new URL(database.url).port}/`)).toBe(true);
    for (const [where, text] of [['spans', exported.toString('latin1')], ['logs', server.output()], ['/metrics', metrics], ['/readyz', readyz]] as const) {
      for (const secret of secrets) expect(text.includes(secret), `${where} holds a password`).toBe(false);
    }
    expect(server.output()).toContain('"redis":true');
  });
});
