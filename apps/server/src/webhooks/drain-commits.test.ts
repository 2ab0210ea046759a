import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations.js';
import { writeQueueStats } from '../db/write-transaction.js';
import { testEventChange } from '../dashboard/test-event.js';
import { seedDrainBacklog, startBatchReceiver, type BatchReceiver } from '../test/batch-receiver.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { claimDeliveries, recordAndClaim } from './delivery-queue.js';
import { DeliveryWorker } from './delivery-worker.js';
import { createEndpoint, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 36, delivery throughput: the worker's database cost per attempt. Attempts that end together are recorded
// and the slots they free are claimed again in ONE write transaction (recordAndClaim), where a record and a claim
// took a commit each. Counted (commits, statements), never timed.

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-28T08:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);

async function endpointOf(handle: DatabaseHandle, seller: string, url: string): Promise<string> {
  const created = await createEndpoint(handle, box, seller, { url }, { allowPrivate: true });
  if (created.kind !== 'created') throw new Error(created.message);
  return created.endpoint.id;
}

describe.each(DIALECTS)('recordAndClaim on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('records the ended attempts and leases the next deliveries in one transaction', async () => {
    const seller = await newTestSeller(db.handle);
    const endpoint = await endpointOf(db.handle, seller, 'https://receiver.example/hooks/record-and-claim');
    for (let i = 0; i < 8; i++) await queueChange(db.handle, endpoint, testEventChange(seller, at(0)), at(0));
    const first = await claimDeliveries(db.handle, { now: at(0), leaseMs: 60_000, owner: 'w1', limit: 4, keyId: box.keyId });
    expect(first).toHaveLength(4);

    const before = dialect === 'sqlite' ? writeQueueStats(db.handle).transactions : 0;
    const { results, claimed } = await recordAndClaim(
      db.handle,
      first.map((delivery) => ({ delivery, outcome: { status: 204 }, sent: { startedAt: at(10), durationMs: 1, signature: 'v1,x' } })),
      { now: at(20), owner: 'w1' },
      { now: at(20), leaseMs: 60_000, owner: 'w1', limit: 4, keyId: box.keyId },
    );
    if (dialect === 'sqlite') expect(writeQueueStats(db.handle).transactions - before).toBe(1);
    expect(first.map((d) => results.get(d.id))).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    // The endpoint's four slots were freed by the record, in the same transaction: the next four are taken.
    expect(claimed).toHaveLength(4);
    expect(new Set(claimed.map((d) => d.id)).size).toBe(4);
    for (const d of claimed) expect(first.map((f) => f.id)).not.toContain(d.id);
    const rows = await db.handle.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'delivered_at', 'lease_owner'])
      .where('endpoint_id', '=', endpoint)
      .orderBy('id')
      .execute();
    expect(rows.filter((r) => r.delivered_at !== null).map((r) => Number(r.id))).toEqual(first.map((d) => d.id).sort((a, b) => a - b));
    expect(rows.filter((r) => r.lease_owner === 'w1').map((r) => Number(r.id))).toEqual(claimed.map((d) => d.id).sort((a, b) => a - b));
  });
});

describe('a drain at a receiver that answers 204 (SQLite, statements counted)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drain-commits-'));
  const statements: string[] = [];
  let handle: DatabaseHandle;
  let receiver: BatchReceiver;
  beforeAll(async () => {
    receiver = await startBatchReceiver();
    handle = connectDatabase(`sqlite:${join(dir, 'drain.db')}`, { sqliteTrace: (text) => statements.push(text) });
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle?.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits once per batch of ended attempts: at most 1 commit per 8 attempts for 128 deliveries, 16 in flight', async () => {
    receiver.expect(await seedDrainBacklog(handle, box, receiver.url));
    statements.length = 0;
    const worker = new DeliveryWorker({ database: handle, secrets: box, allowPrivate: true, concurrency: 16, pollIntervalMs: 60_000, leaseMs: 600_000 });
    const { attempts } = await worker.drain();
    await worker.stop();
    expect(attempts).toBe(128);
    const left = await handle.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('delivered_at', 'is', null).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);

    const commits = statements.filter((text) => /^\s*commit\b/i.test(text)).length;
    const writes = statements.filter((text) => /^\s*(update|insert|delete)\b/i.test(text)).length;
    // Eight rounds of 16. Recording and claiming apart took 2 commits a round (17 in all, 0.13 per attempt); together
    // one a round, plus the first claim and the last look (10, 0.08 per attempt).
    expect(commits, `${commits} commits, ${writes} writing statements, ${statements.length} statements for ${attempts} attempts`).toBeLessThanOrEqual(128 / 8);
  });
});
