import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DatabaseHandle, DialectName } from '../db/connect.js';
import { testEventChange } from '../dashboard/test-event.js';
import { countRowsRead, HAS_SQLITE_SHELL } from '../test/rows-read.js';
import { seedDeliveries } from '../test/seed-deliveries.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { claimDeliveries } from './delivery-queue.js';
import { ENDPOINT_DELIVERY_SLOTS } from './delivery-fairness.js';
import { createEndpoint, queueChange } from './endpoints.js';
import { createSecretBox } from './secret-box.js';

// Issue 36: a claim costs what it takes, not what waits. Seller A has 50,000 deliveries waiting at one endpoint
// (a receiver that never answers, as in the attack); seller B has three. Each claim reads a bounded number of
// rows (counted by the database, never timed), and B's deliveries go out in the first claim.

const box = createSecretBox(randomBytes(32));
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const BACKLOG = 50_000;
/** Per claim, far below the backlog: PostgreSQL rows and index entries read; SQLite virtual machine steps. */
const BOUND: Record<DialectName, number> = { postgres: 1_000, sqlite: 5_000 };

describe.each(DIALECTS)('claims beside a backlog on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  async function endpoint(sellerId: string): Promise<string> {
    const created = await createEndpoint(db.handle, box, sellerId, { url: `https://receiver.example/hooks/${randomUUID()}` });
    if (created.kind !== 'created') throw new Error(created.message);
    return created.endpoint.id;
  }

  it("reads a bounded number of rows per claim whatever waits, and serves the quiet seller in the first claim", { timeout: 120_000 }, async () => {
    const noisy = await newTestSeller(db.handle);
    const quiet = await newTestSeller(db.handle);
    const noisyEndpoint = await endpoint(noisy);
    const quietEndpoint = await endpoint(quiet);
    await seedDeliveries(db.handle, noisy, noisyEndpoint, BACKLOG, { dueAt: new Date(T0 - 60_000).toISOString() });
    for (let i = 0; i < 3; i++) await queueChange(db.handle, quietEndpoint, testEventChange(quiet, new Date(T0)), new Date(T0));
    if (dialect === 'postgres') await sql`analyze`.execute(db.handle.db);

    const claim = (now: number) => (handle: DatabaseHandle) =>
      claimDeliveries(handle, { now: new Date(now), leaseMs: 3_600_000, owner: 'process-1', limit: 16, keyId: box.keyId });
    const first = await countRowsRead(dialect, db.database.url, claim(T0));
    const claimed = first.result.map((d) => d.endpointId);
    expect(claimed.filter((id) => id === quietEndpoint)).toHaveLength(3);
    expect(claimed.filter((id) => id === noisyEndpoint)).toHaveLength(ENDPOINT_DELIVERY_SLOTS);
    // A's slots are all taken now: the next claim finds nothing, and still reads little.
    const second = await countRowsRead(dialect, db.database.url, claim(T0 + 1000));
    expect(second.result).toEqual([]);

    console.info(`${dialect}: read per claim beside ${BACKLOG} waiting: ${first.count} then ${second.count}`);
    if (dialect === 'sqlite') {
      // Every statement reaches the deliveries through an index, never by a scan of the table.
      for (const statement of [...first.statements, ...second.statements]) {
        const plan = await sql.raw<{ detail: string }>(`explain query plan ${statement}`).execute(db.handle.db);
        for (const { detail } of plan.rows) expect(detail).not.toMatch(/^SCAN (webhook_deliveries|d|p)\b/);
      }
      if (!HAS_SQLITE_SHELL) return; // The count needs the sqlite3 shell (see test/rows-read.ts).
    }
    expect(first.count).toBeLessThan(BOUND[dialect]);
    expect(second.count).toBeLessThan(BOUND[dialect]);
  });
});
