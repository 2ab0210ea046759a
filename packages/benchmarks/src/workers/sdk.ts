// The SDK against raw fetch on the same server, in one process: the same GETs, batch by batch, in balanced orders,
// so drift, noise and what one batch leaves to the next hit all alike. The SDK's overhead is the median of the
// per-batch time ratios. The client's CPU time per call is measured per batch too (steadier than time on a busy
// machine). BENCH_SDK_AA=1 puts the timed fetch in the SDK's place: an A/A check of the method (the truth is 0).
import { API_VERSION, CustomersClient } from '@customers-api/sdk';
import { childInput, reply } from '../child.js';
import type { Fixture } from '../fixture.js';
import { median, percentile } from '../stats.js';

export interface SdkInput {
  url: string;
  fixture: Fixture;
  calls: number;
  batches: number;
  concurrency: number;
}

export interface SdkModeResult {
  /** Median time per call over the batches, in ms. */
  sdkMs: number;
  fetchMs: number;
  /** Median over batches of sdk/fetch - 1 (0.1 = 10% slower than raw fetch). */
  overhead: number;
  /** The same against raw fetch given a per-call timeout signal, as the SDK gives every attempt. */
  overheadVsTimed: number;
  /** Latencies of single SDK calls (ms). */
  p50: number;
  p99: number;
  /** The client process's CPU time per SDK call (µs), median over batches. */
  sdkCpuUs: number;
  /** The same for raw fetch with the timeout signal. */
  timedCpuUs: number;
  /** Median over batches of the SDK's CPU per call over the timed fetch's, - 1. */
  cpuOverheadVsTimed: number;
  /** Per batch, the SDK's time over the timed fetch's: how wide `overheadVsTimed` is. */
  batchRatiosVsTimed: number[];
}

export interface SdkResult {
  sequential: SdkModeResult;
  concurrent: SdkModeResult;
}

type Call = (key: string, id: string) => Promise<unknown>;
/** One batch: time per call (ms) and the client process's CPU time per call (µs). */
type Measured = { ms: number; cpuUs: number };

const input = await childInput<SdkInput>();
const clients = new Map(input.fixture.sellers.map(({ key }) => [key, new CustomersClient({ apiKey: key, baseUrl: input.url })]));

const viaRealSdk: Call = (key, id) => clients.get(key)!.customers.get(id);
// The same request on the wire as the SDK's (its seven headers, the API version included), so only client-side
// work differs.
const sdkHeaders = {
  accept: 'application/json',
  'customers-version': API_VERSION,
  'user-agent': `customers-api-sdk/${CustomersClient.VERSION}`,
  'x-customers-sdk-version': CustomersClient.VERSION,
  'x-customers-sdk-runtime': 'node',
  'x-customers-sdk-runtime-version': process.versions.node,
};
/** The SDK's GET done by hand: raw fetch, the same headers, the JSON body. */
async function rawGet(key: string, id: string, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(`${input.url}/api/customers/${encodeURIComponent(id)}`, {
    headers: { ...sdkHeaders, 'x-api-key': key },
    signal,
  });
  if (!response.ok) throw new Error(`GET ${id}: ${response.status}`);
  return response.json();
}
const viaFetch: Call = (key, id) => rawGet(key, id);
// Raw fetch with what the SDK's per-attempt timeout costs: an AbortController, a timer and the signal, which
// undici must follow. Shows how much of the overhead is the timeout and how much the SDK's own code.
const viaTimedFetch: Call = async (key, id) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  try {
    return await rawGet(key, id, controller.signal);
  } finally {
    clearTimeout(timer);
  }
};

/** The SDK, or for an A/A check of the method (BENCH_SDK_AA=1) the timed fetch again, in its own function. */
const viaSdk: Call = process.env.BENCH_SDK_AA ? (key, id) => viaTimedFetch(key, id) : viaRealSdk;

function targets(count: number): Array<[string, string]> {
  return Array.from({ length: count }, (_, i) => {
    const seller = input.fixture.sellers[i % input.fixture.sellers.length]!;
    return [seller.key, seller.ids[Math.floor(Math.random() * seller.ids.length)]!];
  });
}

/**
 * Time per call (ms) and the process's CPU time per call (µs) of `calls` calls, `inFlight` at a time; each call's
 * latency goes to `latencies`.
 */
async function batch(call: Call, work: Array<[string, string]>, inFlight: number, latencies: number[]): Promise<Measured> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < work.length) {
        const [key, id] = work[next++]!;
        const t = performance.now();
        await call(key, id);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const ms = (performance.now() - started) / work.length;
  const used = process.cpuUsage(cpu);
  return { ms, cpuUs: (used.user + used.system) / work.length };
}

const calls = [viaSdk, viaFetch, viaTimedFetch];
/**
 * The orders of the three, batch after batch (cyclic): every ordered pair of two different calls is adjacent three
 * times, also across batches, and each call takes each position twice. A plain rotation (sdk, fetch, timed) put the
 * SDK's batch after the timed fetch's two times in three (and the timed fetch's after plain fetch's), so what the
 * timed fetch leaves behind (a full GC and its signals' finalizers: about 10 µs per call more than plain fetch)
 * landed on the SDK more often than on the timed fetch.
 */
const BALANCED_ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
];

async function compare(inFlight: number): Promise<SdkModeResult> {
  const warm = targets(input.calls);
  await batch(viaFetch, warm, inFlight, []);
  await batch(viaSdk, warm, inFlight, []);
  await batch(viaTimedFetch, warm, inFlight, []);
  const sdkTimes: number[] = [];
  const fetchTimes: number[] = [];
  const ratios: number[] = [];
  const timedRatios: number[] = [];
  const sdkCpu: number[] = [];
  const timedCpu: number[] = [];
  const cpuRatios: number[] = [];
  const sdkLatencies: number[] = [];
  for (let b = 0; b < input.batches; b++) {
    const work = targets(input.calls);
    // Each goes first, second and third equally often, and each follows each of the other two equally often.
    const times = new Map<Call, Measured>();
    for (const call of BALANCED_ORDERS[b % BALANCED_ORDERS.length]!.map((i) => calls[i]!)) {
      times.set(call, await batch(call, work, inFlight, call === viaSdk ? sdkLatencies : []));
    }
    const [sdk, fetched, timed] = calls.map((call) => times.get(call)!) as [Measured, Measured, Measured];
    sdkTimes.push(sdk.ms);
    fetchTimes.push(fetched.ms);
    ratios.push(sdk.ms / fetched.ms);
    timedRatios.push(sdk.ms / timed.ms);
    sdkCpu.push(sdk.cpuUs);
    timedCpu.push(timed.cpuUs);
    cpuRatios.push(sdk.cpuUs / timed.cpuUs);
  }
  sdkLatencies.sort((a, b) => a - b);
  return {
    sdkMs: median(sdkTimes),
    fetchMs: median(fetchTimes),
    overhead: median(ratios) - 1,
    overheadVsTimed: median(timedRatios) - 1,
    p50: percentile(sdkLatencies, 50),
    p99: percentile(sdkLatencies, 99),
    sdkCpuUs: median(sdkCpu),
    timedCpuUs: median(timedCpu),
    cpuOverheadVsTimed: median(cpuRatios) - 1,
    batchRatiosVsTimed: timedRatios,
  };
}

const result: SdkResult = { sequential: await compare(1), concurrent: await compare(input.concurrency) };
await reply(result);
process.exit(0);
