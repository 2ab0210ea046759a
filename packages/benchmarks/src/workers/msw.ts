// The MSW handlers driven through the SDK, all in one process (what a consumer's test suite does): a fixed
// number of calls in flight for a fixed time, after a warm-up.
import { CustomersClient } from '@customers-api/sdk';
import { createCustomersMock } from '@customers-api/msw';
import { setupServer } from 'msw/node';
import { childInput, reply } from '../child.js';
import { percentile } from '../stats.js';
import type { LoadResult } from './load.js';

export interface MswInput {
  customers: number;
  concurrency: number;
  durationSeconds: number;
  warmupSeconds: number;
}

const BASE_URL = 'http://customers.bench.test';
const input = await childInput<MswInput>();
const mock = createCustomersMock({
  baseUrl: BASE_URL,
  customerLimit: input.customers + 1,
  seed: [
    {
      customers: Array.from({ length: input.customers }, (_, i) => ({
        first_name: `First${i}`,
        last_name: `Last${i}`,
        email: `customer${i}@example.com`,
      })),
    },
  ],
});
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
const ids = (await mock.ready).map((customer) => customer.id);
const client = new CustomersClient({ apiKey: mock.defaultSeller!.apiKey, baseUrl: BASE_URL });

async function run(seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: input.concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await client.customers.get(ids[Math.floor(Math.random() * ids.length)]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: elapsed,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: 0,
    statuses: { 200: latencies.length },
  };
}

if (input.warmupSeconds > 0) await run(input.warmupSeconds);
const result = await run(input.durationSeconds);
server.close();
await reply(result);
process.exit(0);
