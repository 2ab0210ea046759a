import { databaseUrlFrom } from '../config.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations.js';
import type { CliIo } from './io.js';

/** Runs an operator command against the --database (else DATABASE_URL, else the default SQLite file). */
export async function withDatabase<T>(
  flag: string | undefined,
  io: CliIo,
  work: (handle: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const handle = connectDatabase(databaseUrlFrom(flag, io.env), { poolSize: 2 });
  try {
    await migrateToLatest(handle);
    return await work(handle);
  } finally {
    await handle.close();
  }
}
