import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { connectDatabase, type DatabaseHandle } from './connect.js';
import { migrations } from './migrations.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';

const OLD_SELLER = '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90';
const NEW_SELLER = '7b1f5f1e-3c2b-4c8f-8e72-2d4c3f7e9ba1';

describe.each(DIALECTS)('migration 013 on %s', (dialect) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const migrator = () => new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations(dialect) } });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // This connection starts empty and stops at 012, as older servers left it.
    handle = connectDatabase(database.url, { poolSize: 2 });
    expect((await migrator().migrateTo('012_api_versions')).error).toBeUndefined();
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  it('pins the endpoints there were to their seller’s version', async () => {
    const now = new Date().toISOString();
    await sql`insert into sellers (id, name, plan, created_at, api_version) values
      (${OLD_SELLER}, 'Old', 'starter', ${now}, '2026-06-01'),
      (${NEW_SELLER}, 'New', 'starter', ${now}, '2026-11-26')`.execute(handle.db);
    for (const [id, seller] of [
      ['0d9c8b7a-6f5e-4d3c-8b2a-190f8e7d6c5b', OLD_SELLER],
      ['1e0d9c8b-7a6f-4e4d-9c3b-2a1f0e9d8c7b', NEW_SELLER],
    ] as const) {
      await sql`insert into webhook_endpoints (id, seller_id, url, event_types, secret, secret_key_id, created_at)
        values (${id}, ${seller}, 'https://hooks.example/', '["customer.created"]', 'sealed', 'key', ${now})`.execute(handle.db);
    }
    expect((await migrator().migrateTo('013_webhook_endpoint_api_version')).error).toBeUndefined();
    const rows = await handle.db.selectFrom('webhook_endpoints').select(['seller_id', 'api_version']).orderBy('api_version').execute();
    expect(rows).toEqual([
      { seller_id: OLD_SELLER, api_version: '2026-06-01' },
      { seller_id: NEW_SELLER, api_version: '2026-11-26' },
    ]);
    expect((await migrator().migrateDown()).error).toBeUndefined();
    expect((await migrator().migrateToLatest()).error).toBeUndefined();
  });
});
