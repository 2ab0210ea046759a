import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call } from '../test/test-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver.js';

// Issue 35: kill -9 of one of two serve processes on one PostgreSQL while it holds deliveries mid-attempt (the
// receiver holds those requests open). The other process takes them over once their lease lapses: every event
// is acknowledged by the receiver, nothing is lost, and only the attempts cut short by the kill are sent again
// (the documented at-least-once rule: a receiver drops duplicates by `webhook-id`). Counts, not times: the waits
// are generous and end as soon as what they wait for has happened.

const folder = mkdtempSync(join(tmpdir(), 'customers-api-takeover-'));
const running: ServeProcess[] = [];
let database: TestDatabase | undefined;
let handle: DatabaseHandle | undefined;
let receiver: WebhookReceiver | undefined;
afterAll(async () => {
  await Promise.all(running.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p.stop() : undefined)));
  await receiver?.close();
  await handle?.close();
  await database?.dispose();
  rmSync(folder, { recursive: true, force: true });
});

describe('kill -9 of one of two serve processes on PostgreSQL', () => {
  it('has the other take over its leased deliveries after the lease: none lost, only the cut-short ones sent twice', { timeout: 240_000 }, async () => {
    database = await createTestDatabase('postgres');
    handle = await database.open();
    const seller = await createSeller(handle, { name: 'Takeover', plan: 'scale', rateLimit: 0 });
    const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'test' });
    receiver = await startWebhookReceiver();
    const keyFile = join(folder, 'webhooks.key');
    let out = '';
    const code = await runCli(
      ['webhooks', 'create', '--seller', seller.id, '--url', receiver.url, '--json', '--database', database.url, '--secret-key-file', keyFile],
      { out: (t) => (out += t), err: () => {}, env: {} },
    );
    expect(code, out).toBe(0);
    const flags = ['--allow-private-webhooks', '--secret-key-file', keyFile, '--rate-limit', '0'];

    // The receiver holds open every request that arrives before B starts: A's attempts stay in flight, their leases
    // renewed, until the kill. Requests after that are B's (A's slots are all taken) and answered at once: if a
    // starved A missed its renewals and B took a lease over before the kill, B's attempt still succeeds first time.
    let bStarted = false;
    receiver.answerWith(() => (bStarted ? { status: 204 } : 'hang'));
    const a = await serve(database.url, flags);
    running.push(a);
    const customers = 12;
    const created: string[] = [];
    for (let i = 0; i < customers; i++) {
      const answer = await call(a.url, 'POST', '/api/customers', { key, body: { first_name: `T${i}`, last_name: 'Kill', email: `t${i}@example.com` } });
      expect(answer.status).toBe(201);
      created.push(answer.json.id as string);
    }
    // A holds the endpoint's slots (4): its requests hang at the receiver.
    const held = await receiver.waitUntil((all) => all.length >= 4);
    const heldIds = new Set(held.map((r) => r.event.id as string));
    // B starts beside it and finds the endpoint's slots taken (counted across processes): it sends nothing yet.
    bStarted = true;
    const b = await serve(database.url, flags);
    running.push(b);
    const leased = await handle.db.selectFrom('webhook_deliveries').select(['lease_owner']).where('lease_owner', 'is not', null).execute();
    expect(new Set(leased.map((row) => row.lease_owner)).size).toBe(1);

    await new Promise((resolve) => {
      a.child.once('exit', resolve);
      a.child.kill('SIGKILL');
    });
    expect(a.child.signalCode).toBe('SIGKILL');
    const sentBeforeKill = receiver.received.length;

    // B takes over A's leases once they lapse, and sends the rest.
    const all = await receiver.waitUntil((requests) => new Set(requests.slice(sentBeforeKill).map((r) => r.event.id as string)).size >= customers);
    // The receiver has answered; B records each answer just after: wait for the rows (bounded), then stop B.
    const readRows = () => handle!.db.selectFrom('webhook_deliveries').select(['attempts', 'delivered_at', 'lease_owner']).execute();
    let rows = await readRows();
    for (let check = 0; check < 600 && rows.some((row) => row.delivered_at === null || row.lease_owner !== null); check++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await readRows();
    }
    expect(await b.stop()).toBe(0);
    expect(rows).toHaveLength(customers);
    // A's attempts were never recorded: each row has B's one attempt, delivered, its lease given back.
    expect(rows.map((row) => [row.attempts, row.delivered_at !== null, row.lease_owner])).toEqual(rows.map(() => [1, true, null]));

    const times = new Map<string, number>();
    for (const request of all) times.set(request.event.id as string, (times.get(request.event.id as string) ?? 0) + 1);
    const twice = [...times].filter(([, n]) => n > 1).map(([id]) => id);
    // Nothing lost: every customer's event arrived; nothing sent twice but the attempts the kill cut short.
    expect(new Set(all.map((r) => r.event.data.customer.id as string))).toEqual(new Set(created));
    expect(twice.every((id) => heldIds.has(id))).toBe(true);
    expect([...times.values()].every((n) => n <= 2)).toBe(true);
    expect(all.length).toBe(customers + twice.length);
    console.log(`[takeover] ${customers} events; ${heldIds.size} in flight at A's kill -9, sent again by B: ${twice.length}; ${all.length} requests in all`);
  });
});
