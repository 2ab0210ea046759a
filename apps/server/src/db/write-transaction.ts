import { sql, type Kysely, type Transaction } from 'kysely';
import type { DatabaseHandle } from './connect.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in a transaction that serialises all writers of one seller, across processes:
 * - PostgreSQL: the seller's row is locked (`SELECT ... FOR UPDATE`) first, so two creates for the same seller
 *   (from any process) run one after the other and each sees the other's rows.
 * - SQLite: `BEGIN IMMEDIATE` takes the database write lock up front (waiting up to busy_timeout), so a
 *   read-then-write never races another connection or process.
 */
export async function withSellerWriteLock<T>(
  handle: DatabaseHandle,
  sellerId: string,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (handle.dialect === 'postgres') {
    return handle.db.transaction().execute(async (trx: Transaction<Database>) => {
      await trx.selectFrom('sellers').select('id').where('id', '=', sellerId).forUpdate().execute();
      return work(trx);
    });
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
