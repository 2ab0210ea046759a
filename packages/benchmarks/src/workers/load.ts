// The load generator, in its own process: autocannon with a fixed number of connections and a fixed duration,
// after a warm-up whose results are thrown away. Latencies are kept exactly (autocannon's histogram has 1 ms steps).
import autocannon from 'autocannon';
import { childInput, reply } from '../child.js';
import type { Fixture } from '../fixture.js';
import { percentile } from '../stats.js';

export type LoadKind = 'plain' | 'get' | 'list' | 'post' | 'patch' | 'mixed';

export interface LoadInput {
  url: string;
  /** More processes serving the same data: the connections are split evenly over `url` and these. */
  moreUrls?: string[];
  kind: LoadKind;
  fixture: Fixture;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses outside 2xx, and connection errors or timeouts. */
  failures: number;
  statuses: Record<string, number>;
}

const STATUSES = ['active', 'inactive', 'suspended'] as const;
let counter = 0;
const runId = `${process.pid}-${Date.now().toString(36)}`;

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** One request of a scenario: a random seller, one of its customers. */
function requestFor(kind: LoadKind, fixture: Fixture): autocannon.Request {
  if (kind === 'plain') return { method: 'GET', path: '/' };
  const seller = pick(fixture.sellers);
  const headers = { 'x-api-key': seller.key, 'content-type': 'application/json' };
  const action = kind === 'mixed' ? (Math.random() < 0.8 ? 'get' : Math.random() < 0.5 ? 'post' : 'patch') : kind;
  if (action === 'get') return { method: 'GET', path: `/api/customers/${pick(seller.ids)}`, headers: { 'x-api-key': seller.key } };
  // A page of 20, newest first; every other one also filtered by status (every seeded customer is active).
  if (action === 'list') {
    const query = Math.random() < 0.5 ? 'limit=20' : 'limit=20&status=active';
    return { method: 'GET', path: `/api/customers?${query}`, headers: { 'x-api-key': seller.key } };
  }
  if (action === 'patch') {
    const body = { status: pick([...STATUSES]), company_name: `Company ${counter++}` };
    return { method: 'PATCH', path: `/api/customers/${pick(seller.ids)}`, headers, body: JSON.stringify(body) };
  }
  const n = counter++;
  const body = { first_name: 'Ada', last_name: `Lovelace ${n}`, email: `bench-${runId}-${n}@example.com` };
  return { method: 'POST', path: '/api/customers', headers, body: JSON.stringify(body) };
}

async function run(input: LoadInput, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const urls = [input.url, ...(input.moreUrls ?? [])];
  // One autocannon per serving process, all at once, their answers counted together.
  const results = await Promise.all(
    urls.map(
      (url, i) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const connections = Math.floor(input.connections / urls.length) + (i < input.connections % urls.length ? 1 : 0);
          const instance = autocannon(
            {
              url,
              connections,
              duration: seconds,
              requests: [{ setupRequest: (request) => ({ ...request, ...requestFor(input.kind, input.fixture) }) }],
            },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
          instance.on('response', (_client, statusCode, _bytes, responseTime) => {
            statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
            if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
          });
        }),
    ),
  );
  latencies.sort((a, b) => a - b);
  const duration = Math.max(...results.map((result) => result.duration));
  return {
    requests: latencies.length,
    seconds: duration,
    rps: latencies.length / duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0),
    statuses,
  };
}

const input = await childInput<LoadInput>();
if (input.warmupSeconds > 0) await run(input, input.warmupSeconds);
await reply({ measuring: true });
await reply(await run(input, input.durationSeconds));
process.exit(0);
