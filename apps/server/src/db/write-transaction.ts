import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseHandle } from './connect.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in a read-then-write transaction.
 * - PostgreSQL: an ordinary transaction; `work` locks the rows it decides on (`SELECT ... FOR UPDATE`), so
 *   writers of the same rows from any process run one after the other.
 * - SQLite: `BEGIN IMMEDIATE` takes the database write lock up front (waiting up to busy_timeout), so a
 *   read-then-write never races another connection or process.
 * A throw rolls everything back.
 */
export async function writeTransaction<T>(
  handle: DatabaseHandle,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (handle.dialect === 'postgres') {
    return handle.db.transaction().execute((trx: Transaction<Database>) => work(trx));
  }
  return handle.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    }
  });
}
