import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '@customers-api/core';
import { Migrator, sql } from 'kysely';
import { connectDatabase, type DatabaseHandle } from './connect.js';
import { migrations } from './migrations.js';
import { createSeller, findSeller } from './sellers.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';

describe.each(DIALECTS)('migration 012 on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations(dialect) } });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // This connection starts empty and stops at 011, as older servers left it.
    handle = connectDatabase(database.url, { poolSize: 2 });
    expect((await migrator().migrateTo('011_change_trace_context')).error).toBeUndefined();
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  it('pins the sellers there were to 2026-11-26, and sellers created after it to the latest', async () => {
    await sql`insert into sellers (id, name, plan, created_at) values
      ('6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', 'Old', 'starter', ${new Date().toISOString()})`.execute(handle.db);
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
    expect((await findSeller(handle, '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90'))?.api_version).toBe('2026-11-26');
    const fresh = await createSeller(handle, { name: 'New', plan: 'starter' });
    expect((await findSeller(handle, fresh.id))?.api_version).toBe(LATEST_API_VERSION);
  });
});
