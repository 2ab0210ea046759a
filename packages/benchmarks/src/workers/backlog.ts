// Issue 36's backlog rows, the client side in a process of its own (the server runs in another, started by the
// run): seller A has deliveries waiting at a black hole (a receiver that accepts the TCP connection and never
// answers), seller B is measured beside it, before and after A's backlog is there.
// - `seeded`: A's backlog written with SQL exactly as the outbox triggers write it (backlog-seed.ts), B's endpoint
//   at a receiver answering 204: B's GET latency (sequential GETs of its customers) and B's due-to-first-attempt
//   (customers created at a steady rate; from the create's request to its webhook's arrival) without and with it.
// - `api`: A's backlog built through the API (PATCHes of its customers fanning out to its endpoints at the black
//   hole); once its first attempts have timed out and `settleSeconds` have passed, the server's CPU while nobody
//   asks anything (with PostgreSQL's on PostgreSQL), then B's GET median over rounds of create-then-read, without
//   and with it.
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { connectDatabase } from '@customers-api/server';
import { childInput, reply } from '../child.js';
import { seedBacklog, waitingOf } from '../backlog-seed.js';
import type { Fixture } from '../fixture.js';
import { cpuMsOf, cpuMsOfTree } from '../rss.js';
import { median } from '../stats.js';

export interface BacklogInput {
  mode: 'seeded' | 'api';
  url: string;
  databaseUrl: string;
  /** sellers[0] is A (the backlog), sellers[1] is B (measured). */
  fixture: Fixture;
  serverPid: number;
  /** PostgreSQL's postmaster: its CPU (and its backends') counts with the server's in the idle measurement. */
  postgresPid?: number;
  /** seeded: rows written; api: PATCHes made (each fans out to `endpoints`). */
  backlog: number;
  endpoints: number;
  /** B's sequential GETs per measurement (seeded). */
  gets: number;
  /** B's creates per measurement and their rate (seeded: due-to-first-attempt). */
  creates: number;
  createsPerSecond: number;
  /** api: seconds from A's first PATCH to the idle measurement; how long it lasts; B's create-then-read rounds. */
  settleSeconds: number;
  idleSeconds: number;
  readRounds: number;
}

export interface LatencyFigures {
  p50: number;
  p99: number;
  /** Requests per second of the sequential loop. */
  rps: number;
}

export interface SeededBacklogResult {
  mode: 'seeded';
  before: { get: LatencyFigures; dueP99: number };
  after: { get: LatencyFigures; dueP99: number };
  /** A's waiting deliveries (its queue heads' counts) when measured, and the seconds the SQL seed took. */
  waiting: number;
  seedSeconds: number;
  /** B's webhooks that never arrived within the wait (each one a failure). */
  lost: number;
}

export interface ApiBacklogResult {
  mode: 'api';
  before: LatencyFigures;
  after: LatencyFigures;
  waiting: number;
  /** Writes (PATCHes) per second while A built its backlog. */
  buildWritesPerSecond: number;
  /** The server's CPU (and PostgreSQL's) while idle, in cores (1 = one core busy the whole time). */
  idleCores: number;
  failures: number;
}

export type BacklogResult = SeededBacklogResult | ApiBacklogResult;

const input = await childInput<BacklogInput>();
const [sellerA, sellerB] = input.fixture.sellers as [Fixture['sellers'][0], Fixture['sellers'][0]];
let failures = 0;
/** B's webhooks that never arrived (seeded). */
let lost = 0;

// The black hole: takes the connection and what is sent, never answers (A's attempts wait for their timeout).
const held = new Set<Socket>();
const blackHole = createTcpServer((socket) => {
  held.add(socket);
  socket.on('error', () => {});
  socket.on('close', () => held.delete(socket));
  socket.resume();
});
// B's receiver: answers 204 at once and notes when each customer's first webhook arrived.
const arrived = new Map<string, number>();
const receiver = createHttpServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const at = performance.now();
    try {
      const id = (JSON.parse(Buffer.concat(chunks).toString()) as { data?: { customer?: { id?: string } } }).data?.customer?.id;
      if (id && !arrived.has(id)) arrived.set(id, at);
    } catch {
      // Not an event: nothing to note.
    }
    res.statusCode = 204;
    res.end();
  });
});
const listen = (server: { listen(port: number, host: string, done: () => void): unknown; address(): unknown }) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const holeUrl = await listen(blackHole);
const receiverUrl = await listen(receiver);

async function call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const send = () =>
    fetch(`${input.url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // A kept-alive connection the server closed while idle (its keep-alive timeout, during a seed or a wait) resets
  // the next request on it, before the server read it: sent again once on a new connection.
  const response = await send().catch((error: Error & { cause?: { code?: string } }) => {
    if (error.cause?.code !== 'ECONNRESET') throw error;
    return send();
  });
  const json = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (response.status >= 400) failures++;
  return { status: response.status, json };
}

async function endpoint(key: string, url: string): Promise<string> {
  const { status, json } = await call(key, 'POST', '/api/webhook_endpoints', { url });
  if (status !== 201) throw new Error(`creating an endpoint at ${url}: ${status} ${JSON.stringify(json)}`);
  return json.id as string;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function figures(times: number[], seconds: number): LatencyFigures {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: median(sorted), p99: percentile(sorted, 0.99), rps: times.length / seconds };
}

/** B's GETs one after another, each of another of its customers. */
async function sequentialGets(): Promise<LatencyFigures> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < input.gets; i++) {
    const t = performance.now();
    await call(sellerB.key, 'GET', `/api/customers/${sellerB.ids[i % sellerB.ids.length]}`);
    times.push(performance.now() - t);
  }
  return figures(times, (performance.now() - started) / 1000);
}

let created = 0;
const newCustomer = () => {
  const n = created++;
  return { first_name: `Quiet${n}`, last_name: 'Seller', email: `quiet-${process.pid}-${n}@example.com` };
};

/** One create of B's and its webhook, unmeasured: B's first delivery opens the worker's connection to the receiver. */
async function warmUp(): Promise<void> {
  const { json } = await call(sellerB.key, 'POST', '/api/customers', newCustomer());
  const deadline = performance.now() + 30_000;
  while (!arrived.has(json?.id as string) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** B creates customers at a steady rate; each one's time from its request to its webhook's arrival; p99 in ms. */
async function dueToFirstAttempt(): Promise<number> {
  const sent = new Map<string, number>();
  const gap = 1000 / input.createsPerSecond;
  const started = performance.now();
  const creates: Array<Promise<void>> = [];
  for (let i = 0; i < input.creates; i++) {
    const wait = started + i * gap - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    creates.push(
      call(sellerB.key, 'POST', '/api/customers', newCustomer()).then(({ json }) => {
        if (json?.id) sent.set(json.id as string, at);
      }),
    );
  }
  await Promise.all(creates);
  // Generous: a lost webhook is counted, not waited for forever.
  const deadline = performance.now() + 30_000;
  while ([...sent.keys()].some((id) => !arrived.has(id)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const latencies = [...sent].map(([id, at]) => (arrived.has(id) ? arrived.get(id)! - at : Number.POSITIVE_INFINITY));
  lost += latencies.filter((ms) => ms === Number.POSITIVE_INFINITY).length + (input.creates - sent.size);
  return percentile(latencies.sort((a, b) => a - b), 0.99);
}

/** Rounds of B creating a customer and reading it back; the read's latency. */
async function createThenRead(): Promise<LatencyFigures> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < input.readRounds; i++) {
    const { json } = await call(sellerB.key, 'POST', '/api/customers', newCustomer());
    const t = performance.now();
    await call(sellerB.key, 'GET', `/api/customers/${json?.id}`);
    times.push(performance.now() - t);
  }
  return figures(times, (performance.now() - started) / 1000);
}

const handle = connectDatabase(input.databaseUrl);
let result: BacklogResult;
try {
  if (input.mode === 'seeded') {
    const hole = await endpoint(sellerA.key, `${holeUrl}/hole`);
    await endpoint(sellerB.key, `${receiverUrl}/hooks`);
    await warmUp();
    const before = { get: await sequentialGets(), dueP99: await dueToFirstAttempt() };
    // One real create of A's (through the API): the change every seeded one copies (a create has no previous
    // snapshot: half the bytes of an update's), its delivery the first waiting.
    await call(sellerA.key, 'POST', '/api/customers', { first_name: 'Backlog', last_name: 'Template', email: 'backlog-template@example.com' });
    const seedStarted = performance.now();
    await seedBacklog(handle, hole, input.backlog);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // The worker's first claims of the new backlog (A's slots fill at the black hole) before measuring.
    await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, input.settleSeconds * 1000)));
    const after = { get: await sequentialGets(), dueP99: await dueToFirstAttempt() };
    result = { mode: 'seeded', before, after, waiting: await waitingOf(handle, hole), seedSeconds, lost };
  } else {
    const holes: string[] = [];
    for (let e = 0; e < input.endpoints; e++) holes.push(await endpoint(sellerA.key, `${holeUrl}/hole/${e}`));
    const before = await createThenRead();
    // A's backlog through the API: PATCHes of its customers, 10 in flight, each fanning out to every endpoint.
    const firstPatch = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < input.backlog) {
          const n = next++;
          await call(sellerA.key, 'PATCH', `/api/customers/${sellerA.ids[n % sellerA.ids.length]}`, { company_name: `Backlog ${n}` });
        }
      }),
    );
    const buildWritesPerSecond = input.backlog / ((performance.now() - firstPatch) / 1000);
    const rest = firstPatch + input.settleSeconds * 1000 - performance.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    const cpuNow = () => (cpuMsOf(input.serverPid) ?? Number.NaN) + (input.postgresPid === undefined ? 0 : cpuMsOfTree(input.postgresPid));
    const idleStarted = performance.now();
    const cpuBefore = cpuNow();
    await new Promise((resolve) => setTimeout(resolve, input.idleSeconds * 1000));
    const idleCores = (cpuNow() - cpuBefore) / (performance.now() - idleStarted);
    const after = await createThenRead();
    let waiting = 0;
    for (const hole of holes) waiting += await waitingOf(handle, hole);
    result = { mode: 'api', before, after, waiting, buildWritesPerSecond, idleCores, failures };
  }
} finally {
  await handle.close();
  for (const socket of held) socket.destroy();
  blackHole.close();
  receiver.close();
}
if (input.mode === 'seeded' && failures > 0) throw new Error(`${failures} of B's requests failed`);
await reply(result);
