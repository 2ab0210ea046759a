import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { FAILED_AUTH_LIMIT } from '../rate-limit/request-limits.js';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call } from '../test/test-server.js';

describe('two serve processes on one PostgreSQL and one Redis (--rate-limit 5 --redis URL)', () => {
  let redis: TestRedis;
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let urls: string[];
  const running: ServeProcess[] = [];
  beforeAll(async () => {
    [redis, database] = await Promise.all([startRedisServer(), createTestDatabase('postgres')]);
    handle = await database.open();
    const flags = ['--rate-limit', '5', '--redis', redis.url];
    running.push(...(await Promise.all([serve(database.url, flags), serve(database.url, flags)])));
    urls = running.map((p) => p.url);
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await handle?.close();
    await Promise.all([database?.dispose(), redis?.stop()]);
  });

  async function newKey(): Promise<string> {
    const seller = await createSeller(handle, { name: 'Shared', plan: 'starter' });
    return (await createApiKey(handle, { sellerId: seller.id, name: 'k' })).key;
  }

  it("counts a seller's requests once across both processes", async () => {
    const key = await newKey();
    const first = await call(urls[0]!, 'GET', '/api/customers', { key });
    const second = await call(urls[1]!, 'GET', '/api/customers', { key });
    expect(first.headers.get('ratelimit')).toBe('"seller";r=4;t=1');
    // The second process sees the first one's request: one budget, not one per process.
    expect(second.headers.get('ratelimit')).toBe('"seller";r=3;t=1');

    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(urls[i % 2]!, 'GET', '/api/customers', { key: key })),
    );
    const served = burst.filter((r) => r.status === 200).length;
    // Five per one-second window over both processes; the burst may straddle two windows.
    expect(served).toBeLessThanOrEqual(10);
    expect(burst.filter((r) => r.status === 429).length).toBe(20 - served);
    expect(running.every((p) => p.output().includes('"redis":true'))).toBe(true);
  });

  it('counts failed authentications of an address once across both processes', async () => {
    const bad = 'sk_live_' + 'y'.repeat(48);
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT + 2; i += 1) {
      statuses.push((await call(urls[i % 2]!, 'GET', '/api/customers', { key: bad })).status);
    }
    expect(statuses).toEqual([...Array(FAILED_AUTH_LIMIT).fill(401), 429, 429]);
  });
});
