import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useTestDatabase } from '../test/test-database.js';
import { purgeExpiredIdempotencyKeys } from './idempotency-keys.js';
import { createSeller } from './sellers.js';

describe.each(DIALECTS)('purgeExpiredIdempotencyKeys on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('deletes expired records only', async () => {
    const { id: sellerId } = await createSeller(db.handle, { name: 'S', plan: 'starter' });
    const now = new Date('2030-01-02T00:00:00.000Z');
    const record = (key: string, expiresAt: string) => ({
      seller_id: sellerId,
      key,
      fingerprint: 'f',
      customer_id: randomUUID(),
      response: '{}',
      created_at: '2030-01-01T00:00:00.000Z',
      expires_at: expiresAt,
    });
    await db.handle.db
      .insertInto('idempotency_keys')
      .values([record('old', '2030-01-01T23:59:59.999Z'), record('edge', now.toISOString()), record('live', '2030-01-02T00:00:00.001Z')])
      .execute();
    expect(await purgeExpiredIdempotencyKeys(db.handle, now)).toBe(2);
    const left = await db.handle.db.selectFrom('idempotency_keys').select('key').execute();
    expect(left.map((r) => r.key)).toEqual(['live']);
  });
});
