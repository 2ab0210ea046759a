import { LATEST_API_VERSION } from '@customers-api/core';
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import {
  createApiKey,
  deleteApiKey,
  findActiveKey,
  findActiveKeyWithCustomer,
  listApiKeys,
  revokeApiKey,
  touchApiKey,
} from './api-keys.js';
import { createSeller } from './sellers.js';
import { SqlCustomerStore } from './sql-customer-store.js';
import { sampleCustomer } from '@customers-api/core/testing';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(DIALECTS)('API key storage on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  let sellerId: string;

  beforeAll(async () => {
    sellerId = (await createSeller(db.handle, { name: 'S', plan: 'growth', customerLimit: 7, rateLimit: 12 })).id;
  });

  it('stores only the SHA-256 hash and a display prefix, never the key', async () => {
    const created = await createApiKey(db.handle, { sellerId, name: 'k' });
    expect(created.key).toMatch(/^sk_live_[A-Za-z0-9]{48}$/);
    const row = await db.handle.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(created.key));
    expect(row.prefix).toBe(created.key.slice(0, row.prefix.length));
    expect(row.prefix.length).toBeLessThan(20);
    expect(JSON.stringify(row)).not.toContain(created.key);
  });

  it('finds an active key with its seller’s plan, overrides and rate limit; not a revoked or expired one', async () => {
    const now = new Date();
    const active = await createApiKey(db.handle, { sellerId, name: 'active' });
    expect(await findActiveKey(db.handle, sha256(active.key), now)).toEqual({
      keyId: active.id,
      sellerId,
      plan: 'growth',
      customerLimitOverride: 7,
      rateLimit: 12,
      apiVersion: LATEST_API_VERSION,
      lastUsedAt: null,
      mode: 'live',
      scopes: null,
    });
    expect(await findActiveKey(db.handle, sha256('unknown'), now)).toBeUndefined();
    const expiring = await createApiKey(db.handle, { sellerId, name: 'e', expiresAt: new Date(now.getTime() + 1000).toISOString() });
    expect(await findActiveKey(db.handle, sha256(expiring.key), now)).toBeDefined();
    expect(await findActiveKey(db.handle, sha256(expiring.key), new Date(now.getTime() + 1000))).toBeUndefined();
    expect(await revokeApiKey(db.handle, active.id)).toBe(true);
    expect(await findActiveKey(db.handle, sha256(active.key), now)).toBeUndefined();
  });

  it('finds the key and its seller’s customer in one statement, by the same usable-key rule', async () => {
    const now = new Date();
    const key = await createApiKey(db.handle, { sellerId, name: 'with customer', expiresAt: new Date(now.getTime() + 1000).toISOString() });
    const customer = sampleCustomer(sellerId, { company_name: 'Analytical Engines Ltd' });
    await new SqlCustomerStore(db.handle).insertCustomer(customer, { customerLimit: 100 });
    const expectedKey = { keyId: key.id, sellerId, plan: 'growth', customerLimitOverride: 7, rateLimit: 12, apiVersion: LATEST_API_VERSION, lastUsedAt: null, mode: 'live', scopes: null };
    expect(await findActiveKeyWithCustomer(db.handle, sha256(key.key), customer.id, now)).toEqual({ key: expectedKey, customer });
    // Another id, or another seller's customer: the key alone (tenancy is the join on the key's seller).
    const other = (await createSeller(db.handle, { name: 'O', plan: 'growth' })).id;
    const theirs = sampleCustomer(other);
    await new SqlCustomerStore(db.handle).insertCustomer(theirs, { customerLimit: 100 });
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      expect(await findActiveKeyWithCustomer(db.handle, sha256(key.key), id, now)).toEqual({ key: expectedKey, customer: undefined });
    }
    expect(await findActiveKeyWithCustomer(db.handle, sha256('unknown'), customer.id, now)).toBeUndefined();
    expect(await findActiveKeyWithCustomer(db.handle, sha256(key.key), customer.id, new Date(now.getTime() + 1000))).toBeUndefined();
    await revokeApiKey(db.handle, key.id);
    expect(await findActiveKeyWithCustomer(db.handle, sha256(key.key), customer.id, now)).toBeUndefined();
  });

  it('creates the four kinds: the mode and scopes pick the prefix, and lookups and listings carry them', async () => {
    const now = new Date();
    const kinds = [
      { input: {}, prefix: 'sk_live_', mode: 'live', scopes: null },
      { input: { mode: 'test' as const }, prefix: 'sk_test_', mode: 'test', scopes: null },
      { input: { scopes: ['events:read', 'customers:read', 'events:read'] }, prefix: 'rk_live_', mode: 'live', scopes: ['customers:read', 'events:read'] },
      { input: { mode: 'test' as const, scopes: [] }, prefix: 'rk_test_', mode: 'test', scopes: [] },
    ];
    for (const kind of kinds) {
      const created = await createApiKey(db.handle, { sellerId, name: kind.prefix, ...kind.input }, now);
      expect(created.key).toMatch(new RegExp(`^${kind.prefix}[A-Za-z0-9]{48}$`));
      expect(created).toMatchObject({ mode: kind.mode, scopes: kind.scopes, prefix: created.key.slice(0, 12) });
      expect(await findActiveKey(db.handle, sha256(created.key), now)).toMatchObject({ keyId: created.id, mode: kind.mode, scopes: kind.scopes });
      const listed = (await listApiKeys(db.handle, sellerId)).find((k) => k.id === created.id);
      expect(listed).toMatchObject({ mode: kind.mode, scopes: kind.scopes });
      expect(JSON.stringify(listed)).not.toContain(created.key);
    }
  });

  it('revokes once (the first time stays), deletes, and knows unknown ids', async () => {
    const key = await createApiKey(db.handle, { sellerId, name: 'r' });
    const first = new Date('2030-01-01T00:00:00.000Z');
    expect(await revokeApiKey(db.handle, key.id, first)).toBe(true);
    expect(await revokeApiKey(db.handle, key.id, new Date('2031-01-01T00:00:00.000Z'))).toBe(true);
    const listed = (await listApiKeys(db.handle, sellerId)).find((k) => k.id === key.id);
    expect(listed?.revoked_at).toBe(first.toISOString());
    expect(await deleteApiKey(db.handle, key.id)).toBe(true);
    expect(await deleteApiKey(db.handle, key.id)).toBe(false);
    expect(await revokeApiKey(db.handle, '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90')).toBe(false);
    expect(await revokeApiKey(db.handle, 'not-a-uuid')).toBe(false);
    expect(await listApiKeys(db.handle, 'not-a-uuid')).toEqual([]);
  });

  it('writes last_used_at at most once a minute, whoever asks', async () => {
    const key = await createApiKey(db.handle, { sellerId, name: 't' });
    const t0 = new Date('2030-06-01T12:00:00.000Z');
    const writes = await Promise.all([1, 2, 3].map(() => touchApiKey(db.handle, key.id, t0)));
    expect(writes.filter(Boolean)).toHaveLength(1);
    expect(await touchApiKey(db.handle, key.id, new Date(t0.getTime() + 59_999))).toBe(false);
    expect(await touchApiKey(db.handle, key.id, new Date(t0.getTime() + 60_001))).toBe(true);
  });
});
