/** One label combination's buckets (not cumulative; made so at scrape time), sum and count. */
interface Series {
  labels: Record<string, string>;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram for hot paths, registered in a prom-client registry like its own metrics. prom-client's
 * Histogram hashes the label object and copies values on every observation (about 0.5 µs, measured); here a caller
 * looks a label combination up once ({@link FastHistogram.series}) and each observation is a bucket search and
 * three additions. The exposition (`get()`) is prom-client's histogram shape: `_bucket` with `le`, `_sum`, `_count`.
 *
 * @example
 * const duration = new FastHistogram('x_seconds', 'X.', ['route'], [0.01, 0.1, 1]);
 * registry.registerMetric(duration as unknown as Metric);
 * duration.series('/a')(0.02);
 */
export class FastHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {}

  /** The observe function of one label combination (values in `labelNames` order). */
  series(...values: string[]): (value: number) => void {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (!series) {
      const labels = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i] ?? '']));
      series = { labels, counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const { buckets } = this;
    const target = series;
    return (value) => {
      let bucket = 0;
      while (bucket < buckets.length && value > buckets[bucket]!) bucket++;
      target.counts[bucket]!++;
      target.sum += value;
      target.count++;
    };
  }

  /** prom-client's metric interface: the values to expose. */
  get() {
    const values: { metricName: string; labels: Record<string, string>; value: number }[] = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: String(bound), ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
