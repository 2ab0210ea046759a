import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectDatabase, type DatabaseHandle, type DialectName } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations.js';

/** Both databases every storage and HTTP suite runs against. */
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  url: string;
  /** Opens a new, migrated connection (pool) to this database; closed by dispose(). */
  open(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}

/** What {@link useTestDatabase} gives a suite; both are set once the suite's `beforeAll` has run. */
export interface SuiteDatabase {
  readonly database: TestDatabase;
  readonly handle: DatabaseHandle;
}

/**
 * A fresh database for the enclosing `describe`: created and opened in `beforeAll`, disposed in `afterAll`.
 *
 * @example
 * const db = useTestDatabase(dialect);
 * it('...', async () => { await db.handle.db.selectFrom('sellers').selectAll().execute(); });
 */
export function useTestDatabase(dialect: DialectName): SuiteDatabase {
  const suite: { database?: TestDatabase; handle?: DatabaseHandle } = {};
  beforeAll(async () => {
    suite.database = await createTestDatabase(dialect);
    suite.handle = await suite.database.open();
  });
  afterAll(async () => {
    await suite.database?.dispose();
  });
  return {
    get database() {
      return suite.database!;
    },
    get handle() {
      return suite.handle!;
    },
  };
}

/** A fresh, empty database of the given kind: a temp SQLite file, or a new database on the test PostgreSQL. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const handles: DatabaseHandle[] = [];
  const track = async (url: string) => {
    const handle = connectDatabase(url, { poolSize: 5 });
    handles.push(handle);
    await migrateToLatest(handle);
    return handle;
  };
  const closeAll = async () => {
    await Promise.all(handles.splice(0).map((h) => h.close()));
  };
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'customers-api-sqlite-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    return {
      url,
      open: () => track(url),
      dispose: async () => {
        await closeAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = inject('postgresUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    open: () => track(url.toString()),
    dispose: async () => {
      await closeAll();
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
