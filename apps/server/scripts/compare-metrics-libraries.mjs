// Compares prom-client with the OpenTelemetry metrics SDK + Prometheus exporter on what the server does per
// request (one histogram observation with three labels, an up-down counter) and per scrape (text exposition).
// Run: node apps/server/scripts/compare-metrics-libraries.mjs (figures in apps/server/README.md, "Operating").
import { performance } from 'node:perf_hooks';
import client from 'prom-client';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';

const N = 1_000_000;
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const routes = ['/api/customers', '/api/customers/:id', '/healthz'];
const methods = ['GET', 'POST', 'PATCH', 'DELETE'];
const statuses = [200, 201, 404, 429];
const labelsAt = (i) => ({ http_request_method: methods[i & 3], http_route: routes[i % 3], http_response_status_code: statuses[(i >> 2) & 3] });

function time(name, fn) {
  fn(10_000);
  const start = performance.now();
  fn(N);
  const ns = ((performance.now() - start) * 1e6) / N;
  console.log(`${name}: ${ns.toFixed(0)} ns per request`);
}

const registry = new client.Registry();
const histogram = new client.Histogram({ name: 'http_server_request_duration_seconds', help: 'x', labelNames: ['http_request_method', 'http_route', 'http_response_status_code'], buckets: BUCKETS, registers: [registry] });
const gauge = new client.Gauge({ name: 'http_server_active_requests', help: 'x', registers: [registry] });
time('prom-client', (n) => {
  for (let i = 0; i < n; i++) {
    gauge.inc();
    histogram.observe(labelsAt(i), 0.001 * (i % 50));
    gauge.dec();
  }
});
let start = performance.now();
for (let i = 0; i < 100; i++) await registry.metrics();
console.log(`prom-client scrape: ${((performance.now() - start) / 100).toFixed(2)} ms`);

const exporter = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ readers: [exporter] });
const meter = provider.getMeter('compare');
const otelHistogram = meter.createHistogram('http.server.request.duration', { unit: 's', advice: { explicitBucketBoundaries: BUCKETS } });
const active = meter.createUpDownCounter('http.server.active_requests');
time('OpenTelemetry SDK', (n) => {
  for (let i = 0; i < n; i++) {
    active.add(1);
    otelHistogram.record(0.001 * (i % 50), labelsAt(i));
    active.add(-1);
  }
});
const serializer = new PrometheusSerializer();
start = performance.now();
for (let i = 0; i < 100; i++) serializer.serialize((await exporter.collect()).resourceMetrics);
console.log(`OpenTelemetry SDK scrape: ${((performance.now() - start) / 100).toFixed(2)} ms`);
await provider.shutdown();
