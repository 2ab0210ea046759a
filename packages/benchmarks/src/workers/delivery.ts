// Webhook delivery throughput (issue 36), in a process of its own: a local keep-alive receiver that answers 204,
// a database seeded through the server's own writes (customers created, the outbox triggers fan them out), then
// - the floor: the least a delivery needs over the same outbox schema, in a loop: claim the next due rows (one
//   update), read their changes, sign each (HMAC-SHA256, Standard Webhooks), POST them, mark them delivered (one
//   update);
// - the server's DeliveryWorker on the same kind of database, until it has drained.
// Both report attempts per second; the worker's ratio to the floor is the row's note. And CPU per attempt, the
// figure a shared machine does not move: this process's (the loop or the worker, and the receiver, the same on
// both sides) and, on PostgreSQL, the database's (the postmaster's tree: its backends).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCustomer } from '@customers-api/core';
import {
  connectDatabase,
  createEndpoint,
  createSecretBox,
  createSeller,
  DeliveryWorker,
  migrateToLatest,
  SqlCustomerStore,
  type DatabaseHandle,
} from '@customers-api/server';
import { sql } from 'kysely';
import { childInput, reply } from '../child.js';
import { cpuMsOfTree } from '../rss.js';

export interface DeliveryInput {
  /** One fresh database per side: `sqlite:` file URLs or PostgreSQL URLs. */
  floorUrl: string;
  workerUrl: string;
  deliveries: number;
  /** Attempts in flight at once (the worker's concurrency; the floor's batch). */
  concurrency: number;
  /** PostgreSQL's postmaster: its backends' CPU time is counted per attempt. */
  postgresPid?: number | undefined;
}

/** Attempts per second; CPU µs per attempt of this process and (PostgreSQL) of the database. */
export interface DeliverySide {
  attemptsPerSecond: number;
  seconds: number;
  delivered: number;
  cpuUs: number;
  dbCpuUs?: number | undefined;
}

export interface DeliveryResult {
  floor: DeliverySide;
  worker: DeliverySide;
}

// Stopped by the parent: exit normally, so --cpu-prof (BENCH_CPU_PROF) writes its profile.
process.once('SIGTERM', () => process.exit(0));
const input = await childInput<DeliveryInput>();
const agent = new Agent({ keepAlive: true, maxSockets: input.concurrency });
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.statusCode = 204;
    res.end();
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
const box = createSecretBox(randomBytes(32));

/** Sellers and endpoints enough that the fairness slots (8 per seller, 4 per endpoint) never limit `concurrency`. */
async function seed(url: string): Promise<DatabaseHandle> {
  const handle = connectDatabase(url, { sqliteSynchronous: 'normal' });
  await migrateToLatest(handle);
  const sellers = Math.max(1, Math.ceil(input.concurrency / 4));
  const store = new SqlCustomerStore(handle);
  for (let s = 0; s < sellers; s++) {
    const seller = await createSeller(handle, { name: `Delivery bench ${s}`, plan: 'test' });
    for (let e = 0; e < 2; e++) {
      const created = await createEndpoint(handle, box, seller.id, { url: `${receiverUrl}/${s}/${e}` }, { allowPrivate: true });
      if (created.kind !== 'created') throw new Error(created.message);
    }
    // Each create fans out to both endpoints: deliveries / 2 creates in all.
    const creates = Math.ceil(input.deliveries / 2 / sellers);
    for (let i = 0; i < creates; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, creates - i) }, (_, j) => {
          const n = i + j;
          const customer = buildCustomer(
            { first_name: `First${n}`, last_name: `Last${n}`, email: `customer${n}@example.com`, company_name: 'Delivery bench' },
            { id: randomUUID(), sellerId: seller.id, createdAt: new Date().toISOString() },
          );
          return store.insertCustomer(customer, { customerLimit: 1_000_000 });
        }),
      );
    }
  }
  return handle;
}

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function floor(handle: DatabaseHandle): Promise<number> {
  const secret = randomBytes(24);
  const { db } = handle;
  let delivered = 0;
  for (;;) {
    const now = new Date().toISOString();
    const lease = new Date(Date.now() + 60_000).toISOString();
    const claimed = await sql<{ id: number; event_id: string; customer: unknown; url: string }>`
      update webhook_deliveries set lease_until = ${lease}, lease_owner = 'floor'
      where id in (select id from webhook_deliveries where next_attempt_at is not null and next_attempt_at <= ${now}
        and lease_until is null order by next_attempt_at, id limit ${sql.lit(input.concurrency)})
      returning id`.execute(db);
    if (claimed.rows.length === 0) return delivered;
    const ids = claimed.rows.map((row) => Number(row.id));
    const rows = await sql<{ id: number; event_id: string; customer: unknown; url: string }>`
      select d.id, c.event_id, c.customer, e.url from webhook_deliveries d
      join customer_changes c on c.id = d.change_id join webhook_endpoints e on e.id = d.endpoint_id
      where d.id in (${sql.join(ids)})`.execute(db);
    await Promise.all(
      rows.rows.map(async (row) => {
        const timestamp = Math.floor(Date.now() / 1000).toString();
        const body = JSON.stringify({ id: row.event_id, data: typeof row.customer === 'string' ? JSON.parse(row.customer) : row.customer });
        const signature = createHmac('sha256', secret).update(`${row.event_id}.${timestamp}.${body}`).digest('base64');
        const status = await post(row.url, body, { 'webhook-id': row.event_id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` });
        if (status !== 204) throw new Error(`receiver answered ${status}`);
      }),
    );
    const at = new Date().toISOString();
    await sql`update webhook_deliveries set delivered_at = ${at}, next_attempt_at = null, lease_until = null, lease_owner = null,
      attempts = attempts + 1 where id in (${sql.join(ids)})`.execute(db);
    delivered += ids.length;
  }
}

async function waitingCount(handle: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from webhook_deliveries where next_attempt_at is not null`.execute(handle.db);
  return Number(rows[0]!.n);
}

/** Runs `drain` and measures it: wall time, this process's CPU, the database's CPU (PostgreSQL). */
async function measured(drain: () => Promise<number>): Promise<DeliverySide> {
  const dbBefore = input.postgresPid === undefined ? undefined : cpuMsOfTree(input.postgresPid);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const delivered = await drain();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const dbMs = dbBefore === undefined ? undefined : cpuMsOfTree(input.postgresPid!) - dbBefore;
  return {
    attemptsPerSecond: delivered / seconds,
    seconds,
    delivered,
    cpuUs: (cpu.user + cpu.system) / delivered,
    ...(dbMs === undefined ? {} : { dbCpuUs: (dbMs * 1000) / delivered }),
  };
}

const floorHandle = await seed(input.floorUrl);
const floorDue = await waitingCount(floorHandle);
const floorSide = await measured(() => floor(floorHandle));
await floorHandle.close();

const workerHandle = await seed(input.workerUrl);
const worker = new DeliveryWorker({ database: workerHandle, secrets: box, allowPrivate: true, concurrency: input.concurrency, pollIntervalMs: 50 });
const workerSide = await measured(async () => (await worker.drain()).attempts);
const left = await waitingCount(workerHandle);
await worker.stop();
await workerHandle.close();
receiver.close();
agent.destroy();
if (left !== 0 || floorSide.delivered !== floorDue) throw new Error(`not drained: worker left ${left}, floor ${floorSide.delivered}/${floorDue}`);

const result: DeliveryResult = { floor: floorSide, worker: workerSide };
await reply(result);
