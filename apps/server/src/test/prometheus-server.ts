import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from './free-port.js';

const PROMETHEUS = process.env.PROMETHEUS_PATH || '/usr/bin/prometheus';
/** promtool ships beside prometheus in Debian's package. */
export const PROMTOOL = join(dirname(PROMETHEUS), 'promtool');

export interface TestPrometheus {
  /** http://127.0.0.1:PORT */
  url: string;
  /** An instant query through the HTTP API: the vector's sample values (empty when nothing matches yet). */
  query(expression: string): Promise<number[]>;
  stop(): Promise<void>;
}

/**
 * A real Prometheus of the test's own scraping `target` (host:port, path /metrics) every second, with its storage
 * in a temp dir and its web API on a free loopback port. The root `pnpm test` installs Debian's package when
 * missing (scripts/ensure-prometheus.mjs); without it this fails saying how to install it.
 *
 * @example
 * const prometheus = await startPrometheus('127.0.0.1:9464');
 * await prometheus.query('up');
 */
export async function startPrometheus(target: string): Promise<TestPrometheus> {
  if (!existsSync(PROMETHEUS)) {
    throw new Error(`${PROMETHEUS} not found: install Debian's prometheus (sudo apt-get install prometheus) or set PROMETHEUS_PATH`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    ['global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: customers-api', '    static_configs:', `      - targets: ['${target}']`, ''].join('\n'),
  );
  const port = await freePort();
  const child = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('close', () => resolveExit()));
  const url = `http://127.0.0.1:${port}`;
  // Ready once its readiness endpoint answers; an early exit fails with its output.
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`prometheus exited: ${output}`);
    const ready = await fetch(`${url}/-/ready`).then((response) => response.ok, () => false);
    if (ready) break;
    await new Promise((resolveLater) => setTimeout(resolveLater, 100));
  }
  return {
    url,
    async query(expression) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`);
      const body = (await response.json()) as { status: string; data: { result: { value: [number, string] }[] } };
      if (body.status !== 'success') throw new Error(`query ${expression} failed: ${JSON.stringify(body)}`);
      return body.data.result.map((sample) => Number(sample.value[1]));
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
