// The MSW handlers driven through the SDK, all in one process (what a consumer's test suite does): a fixed
// number of calls in flight for a fixed time, after a warm-up. A bare MSW handler answering the same customer
// is measured in the same process, in alternating slices, as the baseline the stateful mock is compared with.
import { CustomersClient } from '@customers-api/sdk';
import { createCustomersMock } from '@customers-api/msw';
import { http, HttpResponse, type RequestHandler } from 'msw';
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

/** The stateful mock, and a bare `http.get` returning one fixed customer, measured alike. */
export interface MswResult {
  mock: LoadResult;
  bare: LoadResult;
}

/** Each side's measured time is cut into this many slices, alternated, so both see the same machine. */
const SLICES = 4;
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
const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });
const seeded = await mock.ready;
const ids = seeded.map((customer) => customer.id);
const bare = [http.get(`${BASE_URL}/api/customers/:id`, () => HttpResponse.json(seeded[0]))];
const client = new CustomersClient({ apiKey: mock.defaultSeller!.apiKey, baseUrl: BASE_URL });

async function run(handlers: RequestHandler[], seconds: number, latencies: number[]): Promise<number> {
  server.resetHandlers(...handlers);
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
  return (performance.now() - started) / 1000;
}

function summary(latencies: number[], seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures: 0,
    statuses: { 200: latencies.length },
  };
}

if (input.warmupSeconds > 0) {
  await run(mock.handlers, input.warmupSeconds, []);
  await run(bare, input.warmupSeconds, []);
}
const measured = { mock: { latencies: [] as number[], seconds: 0 }, bare: { latencies: [] as number[], seconds: 0 } };
for (let slice = 0; slice < SLICES; slice++) {
  // Alternate which side goes first, so neither always follows the other's garbage.
  const order = slice % 2 === 0 ? (['mock', 'bare'] as const) : (['bare', 'mock'] as const);
  for (const side of order) {
    const into = measured[side];
    into.seconds += await run(side === 'mock' ? mock.handlers : bare, input.durationSeconds / SLICES, into.latencies);
  }
}
server.close();
const result: MswResult = {
  mock: summary(measured.mock.latencies, measured.mock.seconds),
  bare: summary(measured.bare.latencies, measured.bare.seconds),
};
await reply(result);
process.exit(0);
