import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { connectDatabase } from './connect.js';
import { DatabaseUnavailableError } from './database-unavailable.js';
import { PREPARE_ONCE } from './postgres-pool.js';
import { createTestDatabase } from '../test/test-database.js';

// A real PostgreSQL ends a session under a checked-out client (pg_terminate_backend sends the FATAL 57P01 that a
// restart sends): before issue 35 that was an unhandled 'error' event on the client, and the process exited.

describe('the PostgreSQL pool when a connection is lost', () => {
  it('survives a session ended under a checked-out client, types the error, and reconnects', async () => {
    const database = await createTestDatabase('postgres');
    const kinds: string[] = [];
    const handle = connectDatabase(database.url, { poolSize: 2, onUnavailable: (kind) => kinds.push(kind) });
    const admin = await database.open();
    try {
      const failure = await handle.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin.db);
          // The FATAL arrives between two statements of the checked-out client.
          await new Promise((resolve) => setTimeout(resolve, 50));
          await sql`select 1`.execute(trx);
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect(kinds.length).toBeGreaterThan(0);
      expect(kinds.every((kind) => ['shutting_down', 'lost'].includes(kind))).toBe(true);
      // The broken connection was discarded: the next statements get a new one.
      for (let i = 0; i < 3; i++) {
        const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.db);
        expect(rows[0]!.one).toBe(1);
      }
    } finally {
      await handle.close();
      await database.dispose();
    }
  });

  it('answers a database that is not there with a typed error, promptly', async () => {
    const handle = connectDatabase('postgres://user:secret@127.0.0.1:9/none', { poolSize: 1 });
    try {
      const failure = await sql`select 1`.execute(handle.db).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DatabaseUnavailableError);
      expect((failure as DatabaseUnavailableError).kind).toBe('refused');
      const prepared = await handle.prepared!({ name: 'p1', text: 'select 1' }, []).catch((error: unknown) => error);
      expect(prepared).toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await handle.close();
    }
  });
});

describe('PREPARE_ONCE statements', () => {
  it('run as one named prepared statement of their connection, inside transactions too', async () => {
    const database = await createTestDatabase('postgres');
    const handle = connectDatabase(database.url, { poolSize: 1 });
    try {
      const prepared = async () =>
        (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(handle.db)).rows;
      for (let n = 1; n <= 3; n++) {
        await handle.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`${sql.raw(PREPARE_ONCE)}select ${n}::integer as n`.execute(trx);
          expect(rows[0]!.n).toBe(n);
          await sql`select ${n}::integer as plain`.execute(trx);
        });
      }
      // One name for one text whatever its values; the plain statement was never prepared.
      const statements = await prepared();
      expect(statements).toHaveLength(1);
      expect(statements[0]!.name).toMatch(/^once_[0-9a-f]{32}$/);
      expect(statements[0]!.statement.startsWith(PREPARE_ONCE)).toBe(true);
    } finally {
      await handle.close();
      await database.dispose();
    }
  });
});
