import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { freePort } from '../test/free-port.js';
import { PROMTOOL, startPrometheus, type TestPrometheus } from '../test/prometheus-server.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { newCustomer } from '../test/test-server.js';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), env: {} });
  if (code !== 0) throw new Error(stderr);
  return JSON.parse(stdout);
}

describe('metrics scraped by a real Prometheus', () => {
  let dir: string;
  let server: ServeProcess;
  let prometheus: TestPrometheus;
  let metricsUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'metrics-'));
    const database = `sqlite:${join(dir, 'customers.db')}`;
    const seller = await cli('sellers', 'create', '--name', 'Metrics', '--customer-limit', '1000000', '--json', '--database', database);
    apiKey = (await cli('keys', 'create', '--seller', seller.id, '--name', 'm', '--json', '--database', database)).key;
    // Nothing listens there: every delivery fails and waits for its retry, so the queue has depth.
    const closed = `http://127.0.0.1:${await freePort()}/hooks`;
    await cli('webhooks', 'create', '--seller', seller.id, '--url', closed, '--json', '--database', database);
    server = await serve(database, ['--metrics-port', '0', '--allow-private-webhooks', '--rate-limit', '0']);
    const line = server.stdout().split('\n').find((text) => text.includes('"msg":"metrics listening"'))!;
    metricsUrl = (JSON.parse(line) as { url: string }).url;
    prometheus = await startPrometheus(new URL(metricsUrl).host);
  });
  afterAll(async () => {
    await prometheus?.stop();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const traffic = async () => {
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/customers`, { method: 'POST', headers, body: JSON.stringify(newCustomer()) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${server.url}/api/customers/${id}`, { headers })).status).toBe(200);
  };

  it('serves /metrics on its own listener only, on 127.0.0.1 by default', async () => {
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const other = await fetch(new URL('/other', metricsUrl));
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: 'Not Found', message: 'No route matches /other; metrics are at /metrics' });
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('gives Prometheus the request rate by route template and the delivery queue after traffic', async () => {
    let rate: number[] = [];
    let depth: number[] = [];
    // Traffic until Prometheus has two scrapes with a rise between them (its scrape interval is a second).
    while (!(rate[0]! > 0 && depth[0]! > 0)) {
      await traffic();
      rate = await prometheus.query('sum(rate(http_server_request_duration_seconds_count{http_route="/api/customers/:id",http_request_method="GET"}[1m]))');
      depth = await prometheus.query('customers_webhook_queue_depth');
    }
    expect(rate[0]).toBeGreaterThan(0);
    expect(depth[0]).toBeGreaterThan(0);
    expect(await prometheus.query('customers_webhook_queue_oldest_due_age_seconds')).toHaveLength(1);
    expect(await prometheus.query('customers_webhook_queue_oldest_waiting_age_seconds')).toHaveLength(1);
  });

  it("evaluates every query of the server README's Operating section (issue 35)", async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /```promql\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const queries = block.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    // Request rate and p99, 5xx and 503 shares, 429s by limit, delivery lag, oldest waiting, database errors, pool.
    expect(queries.length).toBeGreaterThanOrEqual(9);
    for (const name of ['oldest_waiting_age', 'rate_limited', 'database_errors', 'pool_pending', 'attempt_lag', 'status_code="503"']) {
      expect(queries.some((query) => query.includes(name)), name).toBe(true);
    }
    // Each one parses and runs on the real server's metrics (query() throws on anything but success).
    for (const query of queries) await prometheus.query(query);
  });

  it('gives Prometheus the attempts’ duration and their lag behind the due time as histograms (issue 35)', async () => {
    let attempts: number[] = [];
    let lag: number[] = [];
    // Every attempt fails (nothing listens) and is recorded as retrying; its first attempt follows its change.
    while (!(attempts[0]! > 0 && lag[0]! >= 0)) {
      await traffic();
      attempts = await prometheus.query('sum(customers_webhook_attempt_duration_seconds_count{outcome="retrying"})');
      lag = await prometheus.query('histogram_quantile(0.99, sum by (le) (customers_webhook_attempt_lag_seconds_bucket))');
    }
    expect(attempts[0]).toBeGreaterThan(0);
    // A quantile of observed lags (never negative; a refused connection ends well within the 10 s timeout).
    expect(lag[0]).toBeGreaterThanOrEqual(0);
    const p99 = await prometheus.query('histogram_quantile(0.99, sum by (le) (customers_webhook_attempt_duration_seconds_bucket))');
    expect(p99[0]).toBeLessThanOrEqual(10);
  });

  it('passes promtool check metrics, and no label carries a seller id, key, email or URL', async () => {
    await traffic();
    const text = await (await fetch(metricsUrl)).text();
    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.error, `run ${PROMTOOL}: install Debian's prometheus (sudo apt-get install prometheus)`).toBeUndefined();
    expect(`${check.stdout}${check.stderr}`).toBe('');
    expect(check.status).toBe(0);
    for (const name of [
      'http_server_request_duration_seconds_bucket',
      'http_server_active_requests',
      'customers_webhook_deliveries_total',
      'customers_webhook_queue_depth',
      'customers_webhook_queue_oldest_due_age_seconds',
      'customers_webhook_queue_oldest_waiting_age_seconds',
      'customers_webhook_attempts_in_flight',
      'customers_webhook_attempt_duration_seconds_bucket',
      'customers_webhook_attempt_lag_seconds_bucket',
      'customers_db_query_duration_seconds_bucket',
      'nodejs_eventloop_lag_seconds',
      'process_cpu_seconds_total',
    ]) {
      expect(text).toContain(name);
    }
    expect(text).toMatch(/http_server_request_duration_seconds_bucket\{le="0\.005",http_request_method="POST",http_route="\/api\/customers",http_response_status_code="201",url_scheme="http",error_type=""\}/);
    expect(text).toMatch(/customers_db_query_duration_seconds_count\{db_system_name="sqlite",db_operation_name="INSERT",db_collection_name="customers"\} [1-9]/);
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-|@example|cust_(live|test)_|https?:\/\//);
  });
});
