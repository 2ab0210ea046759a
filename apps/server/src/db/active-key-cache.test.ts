import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, useTestDatabase, type TestDatabase } from '../test/test-database.js';
import { createApiKey, findActiveKey, revokeApiKey, setApiKeyExpiry, touchApiKey } from './api-keys.js';
import { connectDatabase, type DatabaseHandle } from './connect.js';
import { createSeller, updateSeller } from './sellers.js';
import { writeTransaction } from './write-transaction.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// A key found once may be answered from memory (SQLite); every change to keys or sellers, from this connection or
// any other (the CLI's process, a second server), must show on the very next lookup.
describe.each(DIALECTS)('the active key on every lookup after a change (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  let other: DatabaseHandle;
  let sellerId: string;

  beforeAll(async () => {
    sellerId = (await createSeller(db.handle, { name: 'S', plan: 'starter' })).id;
    other = await db.database.open();
  });

  /** A new key, looked up twice (the second time from the cache, where there is one). */
  async function foundKey(name: string, expiresAt?: string) {
    const key = await createApiKey(db.handle, { sellerId, name, expiresAt: expiresAt ?? null });
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ keyId: key.id });
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ keyId: key.id });
    return key;
  }

  it('refuses a key revoked through the same connection from the next lookup on', async () => {
    const key = await foundKey('same');
    await revokeApiKey(db.handle, key.id);
    expect(await findActiveKey(db.handle, sha256(key.key))).toBeUndefined();
  });

  it('refuses a key revoked by another connection (another process: the CLI) from the next lookup on', async () => {
    const key = await foundKey('other');
    await revokeApiKey(other, key.id);
    expect(await findActiveKey(db.handle, sha256(key.key))).toBeUndefined();
  });

  it('refuses a key revoked by a raw statement of another connection', async () => {
    const key = await foundKey('raw');
    await sql`update api_keys set revoked_at = ${new Date().toISOString()} where id = ${key.id}`.execute(other.db);
    expect(await findActiveKey(db.handle, sha256(key.key))).toBeUndefined();
  });

  it('refuses a key revoked inside a committed write transaction', async () => {
    const key = await foundKey('transaction');
    await writeTransaction(db.handle, async (trx) => {
      await trx.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('id', '=', key.id).execute();
      // Not committed yet: the lookup still sees the key (committed data), and must not keep that answer.
      expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ keyId: key.id });
    });
    expect(await findActiveKey(db.handle, sha256(key.key))).toBeUndefined();
  });

  it('refuses a deleted key, and one whose expiry is set to the past, from the next lookup on', async () => {
    const deleted = await foundKey('deleted');
    await other.db.deleteFrom('api_keys').where('id', '=', deleted.id).execute();
    expect(await findActiveKey(db.handle, sha256(deleted.key))).toBeUndefined();
    const expired = await foundKey('expired');
    await setApiKeyExpiry(db.handle, expired.id, new Date(Date.now() - 1000).toISOString());
    expect(await findActiveKey(db.handle, sha256(expired.key))).toBeUndefined();
  });

  it('refuses a found key once its expiry passes, without any write', async () => {
    const now = new Date();
    const key = await foundKey('expiring', new Date(now.getTime() + 60_000).toISOString());
    expect(await findActiveKey(db.handle, sha256(key.key), new Date(now.getTime() + 60_000))).toBeUndefined();
  });

  it('gives the seller’s new settings (this connection or another) from the next lookup on', async () => {
    const key = await foundKey('settings');
    await updateSeller(db.handle, sellerId, { rate_limit: 77 });
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ rateLimit: 77 });
    await updateSeller(other, sellerId, { rate_limit: 78 });
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ rateLimit: 78 });
    await other.db.updateTable('sellers').set({ plan: 'growth' }).where('id', '=', sellerId).execute();
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ plan: 'growth' });
  });

  it('gives the key’s last use once it is recorded', async () => {
    const key = await foundKey('used');
    const at = new Date();
    expect(await touchApiKey(db.handle, key.id, at)).toBe(true);
    expect(await findActiveKey(db.handle, sha256(key.key))).toMatchObject({ lastUsedAt: at.toISOString() });
  });
});

describe('the active key on a SQLite file', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const reads: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    await database.open();
    handle = connectDatabase(database.url, {
      observer: (query) => {
        reads.push(query.operation);
        return () => {};
      },
    });
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  it('is read from the database once while nothing changes, not on every lookup', async () => {
    const sellerId = (await createSeller(handle, { name: 'S', plan: 'starter' })).id;
    const key = await createApiKey(handle, { sellerId, name: 'k' });
    reads.length = 0;
    for (let i = 0; i < 5; i++) expect(await findActiveKey(handle, sha256(key.key))).toMatchObject({ keyId: key.id, sellerId });
    expect(reads.filter((operation) => operation === 'SELECT')).toHaveLength(1);
  });

  it('is never remembered for an unknown key (no memory grows with wrong keys)', async () => {
    reads.length = 0;
    for (let i = 0; i < 3; i++) expect(await findActiveKey(handle, sha256('sk_live_unknown'))).toBeUndefined();
    expect(reads.filter((operation) => operation === 'SELECT')).toHaveLength(3);
  });
});
