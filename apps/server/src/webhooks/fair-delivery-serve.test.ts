import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import { createSeller } from '../db/sellers.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';
import { call, newCustomer } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';
import { DEFAULT_WEBHOOK_ENDPOINT_LIMIT } from './delivery-fairness.js';
import { createEndpoint } from './endpoints.js';
import { loadSecretKey } from './secret-key.js';

// The "Must show" of issue 23 on real `serve` processes (dist/cli.js), two on one database: seller A fills every
// endpoint its cap allows with a receiver that accepts connections and never answers, and writes 50 customers
// (hundreds of hanging deliveries); seller B's next event must still arrive, and without waiting for a slot that
// A holds: it arrives before any of A's hanging attempts has ended (the first can end only at its 10 s timeout).
// That order, not a wall-clock bound, is the verdict, so a busy machine cannot fail a fair server; the times
// measured are printed.

/** How long the test waits for an event before it calls it lost. */
const LOST_AFTER_MS = 20_000;
const A_CUSTOMERS = 50;

const databases: TestDatabase[] = [];
const running: ServeProcess[] = [];
const receivers: WebhookReceiver[] = [];
const folder = mkdtempSync(join(tmpdir(), 'customers-api-fair-'));
afterAll(async () => {
  await Promise.all(running.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p.stop() : undefined)));
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(databases.map((d) => d.dispose()));
  rmSync(folder, { recursive: true, force: true });
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

/** Milliseconds from now until B's receiver has `count` events, or undefined after `limitMs`. */
async function arrival(target: WebhookReceiver, count: number, limitMs: number): Promise<number | undefined> {
  const start = performance.now();
  const arrived = target.waitUntil((all) => all.length >= count).then(() => performance.now() - start);
  return Promise.race([arrived, sleep(limitMs).then(() => undefined)]);
}

describe.each(DIALECTS)('fair delivery from two serve processes on %s', (dialect) => {
  it("seller B's event arrives while seller A's hundreds of deliveries hang, before any of them ends", async () => {
    const database = await createTestDatabase(dialect);
    databases.push(database);
    const handle = await database.open();
    const keyFile = join(folder, `${dialect}.key`);
    const { box } = loadSecretKey({ file: keyFile, databaseUrl: database.url });
    // Rate limits off for both (0): A's burst must really reach the delivery queue.
    const a = await createSeller(handle, { name: 'Noisy', plan: 'scale', rateLimit: 0 });
    const b = await createSeller(handle, { name: 'Quiet', plan: 'scale', rateLimit: 0 });
    const aKey = (await createApiKey(handle, { sellerId: a.id, name: 'a' })).key;
    const bKey = (await createApiKey(handle, { sellerId: b.id, name: 'b' })).key;

    const blackHole = await receiver();
    blackHole.answerWith(() => 'hang');
    // As many endpoints as A's cap allows (the server's default).
    let aEndpoints = 0;
    for (;;) {
      // One receiver behind every endpoint, each at its own URL (a seller cannot have two at one URL).
      const created = await createEndpoint(handle, box, a.id, { url: `${blackHole.url}?endpoint=${aEndpoints}` }, { allowPrivate: true });
      if (created.kind !== 'created') {
        expect(created).toMatchObject({ kind: 'limit_reached', limit: DEFAULT_WEBHOOK_ENDPOINT_LIMIT });
        break;
      }
      aEndpoints++;
    }
    expect(aEndpoints).toBe(DEFAULT_WEBHOOK_ENDPOINT_LIMIT);
    expect(aEndpoints).toBeGreaterThanOrEqual(5);
    const quiet = await receiver();
    expect((await createEndpoint(handle, box, b.id, { url: quiet.url }, { allowPrivate: true })).kind).toBe('created');

    const flags = ['--allow-private-webhooks', '--secret-key-file', keyFile];
    const [one, two] = await Promise.all([serve(database.url, flags), serve(database.url, flags)]);
    running.push(one!, two!);

    // A idle: the figure to compare with.
    expect((await call(two!.url, 'POST', '/api/customers', { key: bKey, body: newCustomer() })).status).toBe(201);
    const idle = await arrival(quiet, 1, LOST_AFTER_MS);

    // A busy: 50 creates through both processes, each fanned out to every endpoint of A.
    for (let i = 0; i < A_CUSTOMERS; i += 5) {
      const batch = Array.from({ length: 5 }, (_, j) =>
        call([one!, two!][(i + j) % 2]!.url, 'POST', '/api/customers', { key: aKey, body: newCustomer() }),
      );
      for (const created of await Promise.all(batch)) expect(created.status).toBe(201);
    }
    const hanging = A_CUSTOMERS * aEndpoints;
    const rows = await handle.db.selectFrom('webhook_deliveries').select('id').where('seller_id', '=', a.id).execute();
    expect(rows).toHaveLength(hanging);
    // Both processes are busy with A: its requests are arriving at the black hole and hang there.
    await blackHole.waitUntil((all) => all.length >= 4);

    expect((await call(one!.url, 'POST', '/api/customers', { key: bKey, body: newCustomer() })).status).toBe(201);
    const busy = await arrival(quiet, 2, Number(process.env.FAIR_DELIVERY_WAIT_MS ?? LOST_AFTER_MS));
    // Attempts are recorded when they end: A's are all still hanging at the black hole when B's event is in.
    const aEnded = await handle.db
      .selectFrom('webhook_delivery_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
      .select('webhook_delivery_attempts.id')
      .where('webhook_deliveries.seller_id', '=', a.id)
      .execute();
    console.log(
      `[fair delivery ${dialect}] B's event after ${idle?.toFixed(0) ?? 'more than 20000'} ms with A idle, ` +
        `${busy?.toFixed(0) ?? 'more than ' + (process.env.FAIR_DELIVERY_WAIT_MS ?? LOST_AFTER_MS)} ms with A busy ` +
        `(${aEndpoints} endpoints, ${hanging} deliveries hanging; ${blackHole.received.length} requests at the black hole)`,
    );
    expect(idle).toBeDefined();
    expect(busy).toBeDefined();
    expect(aEnded).toHaveLength(0);
  }, 120_000 + Number(process.env.FAIR_DELIVERY_WAIT_MS ?? 0));
});
