import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomersClient } from '@customers-api/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call } from '../test/test-server.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../test/webhook-receiver.js';

// The "Must show" of issue 17 on real `serve` processes (dist/cli.js): each event exactly once from two processes
// on one PostgreSQL, and no acknowledged change's event lost to a kill -9.

const databases: TestDatabase[] = [];
const running: ServeProcess[] = [];
const receivers: WebhookReceiver[] = [];
const folder = mkdtempSync(join(tmpdir(), 'customers-api-webhooks-'));
afterAll(async () => {
  await Promise.all(running.map((p) => (p.child.exitCode === null && p.child.signalCode === null ? p.stop() : undefined)));
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(databases.map((d) => d.dispose()));
  rmSync(folder, { recursive: true, force: true });
});

/** A database with a seller, its API key and an endpoint (made with the CLI) at a fresh receiver. */
async function setUp(dialect: 'sqlite' | 'postgres', keyFile: string) {
  const database = await createTestDatabase(dialect);
  databases.push(database);
  const handle: DatabaseHandle = await database.open();
  // No rate limit (0): the bursts below measure delivery, and a fast server would otherwise meet the default.
  const seller = await createSeller(handle, { name: 'Hooks', plan: 'scale', rateLimit: 0 });
  const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'test' });
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  let stdout = '';
  const io = { out: (t: string) => (stdout += t), err: (t: string) => void t, env: {} };
  const code = await runCli(
    ['webhooks', 'create', '--seller', seller.id, '--url', receiver.url, '--json', '--database', database.url, '--secret-key-file', keyFile],
    io,
  );
  expect(code).toBe(0);
  const endpoint = JSON.parse(stdout) as { id: string; secret: string };
  const flags = ['--allow-private-webhooks', '--secret-key-file', keyFile];
  return { database, handle, sellerId: seller.id, key, receiver, endpoint, flags };
}

const byEvent = (received: ReceivedWebhook[]) => new Map(received.map((r) => [r.event.id as string, r]));

describe('webhooks from serve processes', () => {
  it('on PostgreSQL with two processes: created, updated, deleted through the SDK, each delivered exactly once, signed', async () => {
    const { database, handle, key, receiver, endpoint, flags } = await setUp('postgres', join(folder, 'pg.key'));
    const [a, b] = await Promise.all([serve(database.url, flags), serve(database.url, flags)]);
    running.push(a!, b!);
    const clients = [a!, b!].map((p) => new CustomersClient({ apiKey: key, baseUrl: p.url, maxRetries: 0 }));
    const customers = 10;
    // Each customer is created through one process, changed through the other, deleted through the first.
    await Promise.all(
      Array.from({ length: customers }, async (_, i) => {
        const [one, other] = [clients[i % 2]!, clients[(i + 1) % 2]!];
        const created = await one.customers.create({ first_name: `C${i}`, last_name: 'Two', email: `c${i}@example.com` });
        await other.customers.update(created.id, { status: 'inactive' });
        await one.customers.delete(created.id);
      }),
    );
    const received = await receiver.waitUntil((all) => all.length >= customers * 3);
    // Both processes stop cleanly (their workers finish what they hold); nothing more arrives.
    expect(await a!.stop()).toBe(0);
    expect(await b!.stop()).toBe(0);
    expect(receiver.received).toHaveLength(customers * 3);
    expect(byEvent(received).size).toBe(customers * 3);
    const verifier = new Webhook(endpoint.secret);
    const perCustomer = new Map<string, string[]>();
    for (const request of received) {
      expect(verifier.verify(request.body, request.headers as Record<string, string>)).toEqual(request.event);
      const id = request.event.data.customer.id as string;
      perCustomer.set(id, [...(perCustomer.get(id) ?? []), `${request.event.data.sequence} ${request.event.type}`]);
    }
    expect(perCustomer.size).toBe(customers);
    for (const events of perCustomer.values()) {
      expect(events).toEqual(['1 customer.created', '2 customer.updated', '3 customer.deleted']);
    }
    const rows = await handle.db.selectFrom('webhook_deliveries').select(['attempts', 'delivered_at', 'lease_owner']).execute();
    expect(rows).toHaveLength(customers * 3);
    expect(rows.every((row) => row.attempts === 1 && row.delivered_at !== null && row.lease_owner === null)).toBe(true);
  }, 60_000);

  it('on SQLite: kill -9 during a burst of changes and deliveries loses no acknowledged change’s event, and sends none for rejected requests', async () => {
    const { database, handle, key, receiver, flags } = await setUp('sqlite', join(folder, 'sqlite.key'));
    const first = await serve(database.url, flags);
    running.push(first);
    const acknowledged = new Set<string>();
    let killed: Promise<unknown> | undefined;
    let rejected = 0;
    let n = 0;
    const writer = async () => {
      while (!killed) {
        const i = n++;
        try {
          const created = await call(first.url, 'POST', '/api/customers', { key, body: { first_name: `K${i}`, last_name: 'Kill', email: `k${i}@example.com` } });
          if (created.status !== 201) throw new Error(`create answered ${created.status}`);
          acknowledged.add(`${created.json.id} customer.created`);
          // Refused: the email is taken (409) and the body invalid (400); neither may emit anything.
          const taken = await call(first.url, 'POST', '/api/customers', { key, body: { first_name: 'REJECTED', last_name: 'X', email: `k${i}@example.com` } });
          const invalid = await call(first.url, 'PATCH', `/api/customers/${created.json.id}`, { key, body: { first_name: 'REJECTED', status: 'gone' } });
          expect([taken.status, invalid.status]).toEqual([409, 400]);
          rejected += 2;
          const updated = await call(first.url, 'PATCH', `/api/customers/${created.json.id}`, { key, body: { status: 'suspended' } });
          if (updated.status !== 200) throw new Error(`update answered ${updated.status}`);
          acknowledged.add(`${created.json.id} customer.updated`);
          if (i % 2 === 0) {
            const deleted = await call(first.url, 'DELETE', `/api/customers/${created.json.id}`, { key });
            if (deleted.status !== 204) throw new Error(`delete answered ${deleted.status}`);
            acknowledged.add(`${created.json.id} customer.deleted`);
          }
          // Kill once deliveries are flowing and plenty of changes are acknowledged.
          if (acknowledged.size >= 90 && receiver.received.length > 0) {
            killed ??= new Promise((resolve) => {
              first.child.once('exit', resolve);
              first.child.kill('SIGKILL');
            });
          }
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, writer));
    await killed;
    const receivedAtKill = byEvent(receiver.received).size;

    const second = await serve(database.url, flags);
    running.push(second);
    const key_ = (r: ReceivedWebhook) => `${r.event.data.customer.id} ${r.event.type}`;
    const received = await receiver.waitUntil((all) => {
      const got = new Set(all.map(key_));
      return [...acknowledged].every((change) => got.has(change));
    });
    expect(await second.stop()).toBe(0);
    // Every event received is a recorded change (acknowledged, or in flight at the kill and committed), and none
    // carries what only refused requests sent.
    const changes = await handle.db.selectFrom('customer_changes').select(['event_id', 'customer_id', 'type']).execute();
    const recorded = new Set(changes.map((c) => c.event_id));
    expect(received.every((r) => recorded.has(r.event.id))).toBe(true);
    expect(received.some((r) => JSON.stringify(r.event).includes('REJECTED'))).toBe(false);
    expect(changes.filter((c) => c.type === 'customer.created')).toHaveLength(new Set(changes.map((c) => c.customer_id)).size);
    console.log(
      `[webhooks kill -9] ${acknowledged.size} acknowledged changes, ${rejected} rejected requests; ${receivedAtKill} events received before the kill, ` +
        `${byEvent(received).size} distinct after the restart (${received.length} requests: at least once)`,
    );
  }, 60_000);
});
