import client from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastHistogram } from './fast-histogram.js';

describe('FastHistogram', () => {
  it("exposes exactly what prom-client's Histogram exposes for the same observations", async () => {
    const buckets = [0.005, 0.01, 0.1, 1];
    const theirs = new client.Registry();
    const reference = new client.Histogram({ name: 'x_seconds', help: 'X.', labelNames: ['route', 'status'], buckets, registers: [theirs] });
    const ours = new client.Registry();
    const fast = new FastHistogram('x_seconds', 'X.', ['route', 'status'], buckets);
    ours.registerMetric(fast as unknown as client.Metric);
    const observations: [string, string, number][] = [
      ['/a', '200', 0.001],
      ['/a', '200', 0.005],
      ['/a', '200', 0.0051],
      ['/a', '404', 0.5],
      ['/b/:id', '200', 3],
      ['/a', '200', 1],
    ];
    for (const [route, status, value] of observations) {
      reference.labels(route, status).observe(value);
      fast.series(route, status)(value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    fast.reset();
    expect(await ours.metrics()).toBe('# HELP x_seconds X.\n# TYPE x_seconds histogram\n');
  });
});
