import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import type { DatabaseHandle } from './connect.js';
import { writeQueueStats, writeStatement, writeTransaction } from './write-transaction.js';

function insertSeller(trx: DatabaseHandle['db'], name: string) {
  return trx
    .insertInto('sellers')
    .values({ id: randomUUID(), name, plan: 'test', customer_limit: null, created_at: new Date().toISOString() })
    .execute();
}

async function sellerNames(handle: DatabaseHandle, prefix: string): Promise<string[]> {
  const rows = await handle.db.selectFrom('sellers').select('name').where('name', 'like', `${prefix}%`).orderBy('name').execute();
  return rows.map((row) => row.name);
}

describe.each(DIALECTS)('writeTransaction on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const names = (prefix: string) => sellerNames(db.handle, prefix);

  it('commits concurrent works; one that throws undoes only its own writes', async () => {
    const prefix = `group-${randomUUID()}-`;
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        writeTransaction(db.handle, async (trx) => {
          await insertSeller(trx, `${prefix}${String(i).padStart(2, '0')}`);
          if (i % 4 === 1) throw new Error(`work ${i} refuses`);
          return i;
        }),
      ),
    );
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(
      Array.from({ length: 12 }, (_, i) => (i % 4 === 1 ? `work ${i} refuses` : i)),
    );
    expect(await names(prefix)).toEqual(
      Array.from({ length: 12 }, (_, i) => i)
        .filter((i) => i % 4 !== 1)
        .map((i) => `${prefix}${String(i).padStart(2, '0')}`),
    );
  });

  it('rolls back a lone work that throws', async () => {
    const prefix = `alone-${randomUUID()}-`;
    await expect(
      writeTransaction(db.handle, async (trx) => {
        await insertSeller(trx, `${prefix}x`);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await names(prefix)).toEqual([]);
  });
});

// SQLite: one process has one writer connection, so works run one after the other (PostgreSQL relies on the row
// locks each work takes instead), and those that queue up share a transaction.
describe('writeTransaction group commit on SQLite', () => {
  const db = useTestDatabase('sqlite');
  const names = (prefix: string) => sellerNames(db.handle, prefix);

  it('lets each work see the writes of the works before it (decisions stay serial)', async () => {
    const prefix = `serial-${randomUUID()}-`;
    // Each work inserts only if fewer than 3 rows exist: a plan limit in miniature.
    const inserted = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        writeTransaction(db.handle, async (trx) => {
          const { count } = await trx
            .selectFrom('sellers')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('name', 'like', `${prefix}%`)
            .executeTakeFirstOrThrow();
          if (Number(count) >= 3) return false;
          await insertSeller(trx, `${prefix}${i}`);
          return true;
        }),
      ),
    );
    expect(inserted.filter(Boolean)).toHaveLength(3);
    expect(await names(prefix)).toHaveLength(3);
  });

  it('runs the works that arrive in one turn of the event loop in one transaction', async () => {
    const before = writeQueueStats(db.handle);
    const prefix = `shared-${randomUUID()}-`;
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeTransaction(db.handle, (trx) => insertSeller(trx, `${prefix}${i}`))));
    const after = writeQueueStats(db.handle);
    expect(after.works - before.works).toBe(20);
    expect(after.transactions - before.transactions).toBe(1);
    expect(await names(prefix)).toHaveLength(20);
  });

  /** One seller inserted synchronously on the write connection: what a one-statement create does. */
  const insertSync = (id: string, name: string) => () =>
    db.handle.writeRun!('insert into sellers (id, name, plan, customer_limit, created_at) values (?, ?, ?, null, ?)', [
      id,
      name,
      'test',
      new Date().toISOString(),
    ]).changes;

  // A create without an idempotency key is one INSERT (db/sql-customer-store.ts): no savepoint of its own.
  it('fails only a one-statement work whose statement violates a constraint; the group commits the rest', async () => {
    const prefix = `one-${randomUUID()}-`;
    const takenId = randomUUID();
    const insertRaw = (id: string, name: string) => async () => insertSync(id, name)();
    const before = writeQueueStats(db.handle);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        // Works 3 and 6 reuse the id of work 0: the primary key refuses them.
        writeTransaction(db.handle, insertRaw(i % 3 === 0 ? takenId : randomUUID(), `${prefix}${i}`), {
          oneStatement: true,
        }),
      ),
    );
    expect(writeQueueStats(db.handle).transactions - before.transactions).toBe(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as { code: string }).code))).toEqual([
      1, 1, 1, 'SQLITE_CONSTRAINT_PRIMARYKEY', 1, 1, 'SQLITE_CONSTRAINT_PRIMARYKEY', 1,
    ]);
    expect(await names(prefix)).toEqual([0, 1, 2, 4, 5, 7].map((i) => `${prefix}${i}`));
  });

  it('fails the whole group, committing nothing, when a one-statement work fails otherwise', async () => {
    const prefix = `broken-${randomUUID()}-`;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        i === 2
          ? writeTransaction(db.handle, async () => db.handle.writeRun!('insert into no_such_table values (?)', [i]), { oneStatement: true })
          : writeTransaction(db.handle, (trx) => insertSeller(trx, `${prefix}${i}`)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(await names(prefix)).toEqual([]);
  });

  // writeStatement: a group of synchronous statements runs on the write connection in one turn, same outcomes.

  it('commits a group of statements in one transaction; a constraint fails only its own', async () => {
    const prefix = `sync-${randomUUID()}-`;
    const takenId = randomUUID();
    const before = writeQueueStats(db.handle);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => writeStatement(db.handle, insertSync(i % 3 === 0 ? takenId : randomUUID(), `${prefix}${i}`))),
    );
    const after = writeQueueStats(db.handle);
    expect(after.transactions - before.transactions).toBe(1);
    expect(after.works - before.works).toBe(8);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as { code: string }).code))).toEqual([
      1, 1, 1, 'SQLITE_CONSTRAINT_PRIMARYKEY', 1, 1, 'SQLITE_CONSTRAINT_PRIMARYKEY', 1,
    ]);
    expect(await names(prefix)).toEqual([0, 1, 2, 4, 5, 7].map((i) => `${prefix}${i}`));
    expect(db.handle.writeInTransaction!()).toBe(false);
  });

  it('fails a whole group of statements, committing nothing, when one fails otherwise', async () => {
    const prefix = `sync-broken-${randomUUID()}-`;
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        writeStatement(db.handle, i === 2 ? () => db.handle.writeRun!('insert into no_such_table values (?)', [i]).changes : insertSync(randomUUID(), `${prefix}${i}`)),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(await names(prefix)).toEqual([]);
    expect(db.handle.writeInTransaction!()).toBe(false);
  });

  it('joins statements and other works in one group, each seeing the writes before it', async () => {
    const prefix = `sync-mixed-${randomUUID()}-`;
    const before = writeQueueStats(db.handle);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? writeStatement(db.handle, insertSync(randomUUID(), `${prefix}${i}`))
          : writeTransaction(db.handle, async (trx) => {
              await insertSeller(trx, `${prefix}${i}`);
              const rows = await trx.selectFrom('sellers').select('name').where('name', 'like', `${prefix}%`).execute();
              return rows.length;
            }),
      ),
    );
    expect(writeQueueStats(db.handle).transactions - before.transactions).toBe(1);
    // Works 1, 3 and 5 count the rows written before theirs in the group, their own included.
    expect(results).toEqual([1, 2, 1, 4, 1, 6]);
    expect(await names(prefix)).toHaveLength(6);
  });

  it('waits for a transaction another writer holds open on the connection, and never runs inside it', async () => {
    const prefix = `sync-held-${randomUUID()}-`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A Kysely transaction of its own on the write connection, open across an await.
    const other = db.handle.db.transaction().execute(async (trx) => {
      await insertSeller(trx, `${prefix}held`);
      await held;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.handle.writeInTransaction!()).toBe(true);
    const written = writeStatement(db.handle, insertSync(randomUUID(), `${prefix}statement`));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(other).rejects.toThrow('rolled back');
    expect(await written).toBe(1);
    // The other transaction's rollback did not take the statement with it.
    expect(await names(prefix)).toEqual([`${prefix}statement`]);
  });
});
