import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../build-app.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations.js';
import { createSeller } from '../db/sellers.js';
import { createApiKey } from '../db/api-keys.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';
import { newCustomer } from '../test/test-server.js';
import { createServerMetrics, type ServerMetrics } from './metrics.js';

describe.each(DIALECTS)('server metrics on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let metrics: ServerMetrics;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    metrics = createServerMetrics();
    handle = connectDatabase(database.url, { observer: metrics.queries, poolSize: 3, onUnavailable: metrics.databaseError });
    await migrateToLatest(handle);
    metrics.watchDatabase(handle);
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  /** A sample's value by its exposed name (a histogram's `_count`), undefined when absent. */
  const value = async (name: string, labels: Record<string, string> = {}) => {
    const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => name === m.name || name === `${m.name}_count`);
    const sample = metric?.values.find(
      (v) => ((v as { metricName?: string }).metricName ?? metric.name) === name && Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l),
    );
    return sample?.value;
  };
  const single = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values[0]?.value;

  it('counts requests by route template, 429s by limit, and statements by operation', async () => {
    // The limiter's windows follow a frozen clock: the test, not the machine's speed, decides when a second ends.
    // The request log's background writer stays off: its batches take a pool connection whenever its timer fires.
    const app = await buildApp({ database: handle, metrics, requestLogs: false, rateLimit: { perSecond: 1, now: () => 1_795_000_000_000 } });
    try {
      const seller = await createSeller(handle, { name: 'm', plan: 'test' });
      const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'k' });
      const headers = { 'x-api-key': key, 'content-type': 'application/json' };
      expect((await app.inject({ method: 'POST', url: '/api/customers', headers, payload: newCustomer() })).statusCode).toBe(201);
      expect((await app.inject({ method: 'GET', url: '/api/customers/00000000-0000-4000-8000-000000000000', headers })).statusCode).toBe(429);
      for (let i = 0; i < 25; i++) await app.inject({ method: 'GET', url: '/api/customers', headers: { 'x-api-key': 'cust_test_wrong' } });

      expect(await value('http_server_request_duration_seconds_count', { http_route: '/api/customers', http_request_method: 'POST', http_response_status_code: '201' })).toBe(1);
      // Paths no route matches share one fixed label, whatever they are.
      for (const path of ['/nothing-here', '/wp-login.php', '/api/customers/a/b']) await app.inject({ method: 'GET', url: path });
      const unmatched = await value('http_server_request_duration_seconds_count', { http_route: 'unmatched', http_request_method: 'GET', http_response_status_code: '404' });
      expect(unmatched).toBeGreaterThanOrEqual(2);
      expect(await metrics.registry.getSingleMetricAsString('http_server_request_duration_seconds')).not.toMatch(/wp-login|nothing-here|http_route=""/);
      expect(await value('customers_rate_limited_requests_total', { limit: 'seller' })).toBe(1);
      expect(await value('customers_rate_limited_requests_total', { limit: 'unauthenticated' })).toBeGreaterThan(0);
      expect(await value('http_server_active_requests')).toBe(0);
      const system = dialect === 'postgres' ? 'postgresql' : 'sqlite';
      expect(await value('customers_db_query_duration_seconds_count', { db_system_name: system, db_operation_name: 'SELECT' })).toBeGreaterThan(0);
      // Every connection is back in the pool between requests (SQLite has none: always 0). Read alone: a scrape of
      // everything runs the queue gauges' own statements, which take connections while the pool gauges are read.
      expect(await single('customers_db_pool_connections_in_use')).toBe(0);
      expect(await single('customers_db_pool_pending_requests')).toBe(0);
      expect(await value('customers_db_pool_connections_max')).toBe(dialect === 'postgres' ? 3 : 0);
      if (dialect === 'postgres') expect(await value('customers_db_pool_connections_idle')).toBeGreaterThan(0);
      expect(await value('customers_webhook_queue_depth')).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('database errors and dependencies', () => {
  it('counts database errors by kind and says whether each fail-open dependency answers', async () => {
    const metrics = createServerMetrics();
    metrics.databaseError('lost');
    metrics.databaseError('lost');
    metrics.databaseError('refused');
    let redisUp = false;
    metrics.watchDependency('redis', () => redisUp);
    const text = () => metrics.registry.metrics();
    expect(await text()).toContain('customers_database_errors_total{kind="lost"} 2');
    expect(await text()).toContain('customers_database_errors_total{kind="refused"} 1');
    expect(await text()).toContain('customers_dependency_up{dependency="redis"} 0');
    redisUp = true;
    expect(await text()).toContain('customers_dependency_up{dependency="redis"} 1');
  });

  it('names the version this process runs', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await createServerMetrics().registry.metrics()).toMatch(new RegExp(`customers_build_info\\{version="${version.replace(/\./g, '\\.')}",commit="[^"]+"\\} 1`));
  });
});

describe('requestFinished', () => {
  it('keeps one series per method, route template, status and scheme, however the calls interleave', async () => {
    const metrics = createServerMetrics();
    const calls: [string, string, number, ('http' | 'https')?][] = [
      ['GET', '/api/customers/:id', 200],
      ['GET', '/api/customers/:id', 404],
      ['DELETE', '/api/customers/:id', 200],
      ['GET', '/api/customers', 200],
      ['GET', 'unmatched', 404],
      ['GET', '/api/customers/:id', 200],
      ['GET', '/api/customers/:id', 200, 'https'],
      ['POST', '/api/customers', 503],
    ];
    for (const [method, route, status, scheme] of calls) metrics.requestFinished(method, route, status, 0.02, scheme);
    const text = await metrics.registry.getSingleMetricAsString('http_server_request_duration_seconds');
    const count = (method: string, route: string, status: number, scheme = 'http', errorType = '') =>
      Number(
        new RegExp(
          `_count\\{http_request_method="${method}",http_route="${route}",http_response_status_code="${status}",url_scheme="${scheme}",error_type="${errorType}"\\} (\\d+)`,
        ).exec(text)?.[1],
      );
    expect(count('GET', '/api/customers/:id', 200)).toBe(2);
    expect(count('GET', '/api/customers/:id', 200, 'https')).toBe(1);
    expect(count('GET', '/api/customers/:id', 404)).toBe(1);
    expect(count('DELETE', '/api/customers/:id', 200)).toBe(1);
    expect(count('GET', '/api/customers', 200)).toBe(1);
    expect(count('GET', 'unmatched', 404)).toBe(1);
    // A 5xx is an error of the server: its status is the error type (OTel's HTTP conventions); a 4xx is not.
    expect(count('POST', '/api/customers', 503, 'http', '503')).toBe(1);
    expect(text.match(/_count\{/g)).toHaveLength(7);
    // 0.02 s falls in the 0.025 bucket, not the 0.01 one.
    const labels = 'http_request_method="GET",http_route="/api/customers",http_response_status_code="200",url_scheme="http",error_type=""';
    expect(text).toContain(`http_server_request_duration_seconds_bucket{le="0.01",${labels}} 0`);
    expect(text).toContain(`http_server_request_duration_seconds_bucket{le="0.025",${labels}} 1`);
  });
});
