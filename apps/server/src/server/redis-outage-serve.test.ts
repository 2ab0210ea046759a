import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { createSeller } from '../db/sellers.js';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { serve, type ServeProcess } from '../test/serve-process.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { call } from '../test/test-server.js';

// Issue 35: the rate limiter fails open when Redis is away, so readiness must not fail with it (behind a load
// balancer that reads /readyz, a Redis blip would be a full outage). Two real processes, a real redis-server stopped.

describe('two serve processes sharing a Redis that stops', () => {
  let redis: TestRedis | undefined;
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const running: ServeProcess[] = [];
  beforeAll(async () => {
    [redis, database] = await Promise.all([startRedisServer(), createTestDatabase('postgres')]);
    handle = await database.open();
    const flags = ['--rate-limit', '1000', '--redis', redis.url, '--metrics-port', '0'];
    running.push(...(await Promise.all([serve(database.url, flags), serve(database.url, flags)])));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await handle?.close();
    await Promise.all([database?.dispose(), redis?.stop()]);
  });

  const readyz = (p: ServeProcess) => call(p.url, 'GET', '/readyz');
  const metricsUrl = (p: ServeProcess) => {
    const line = p.stdout().split('\n').find((text) => text.includes('"msg":"metrics listening"'))!;
    return (JSON.parse(line) as { url: string }).url;
  };
  const redisUp = async (p: ServeProcess) => /customers_dependency_up\{dependency="redis"\} (\d)/.exec(await (await fetch(metricsUrl(p))).text())?.[1];

  it('stays ready (200, naming redis degraded) and answers without a 5xx', async () => {
    const seller = await createSeller(handle, { name: 'Redis outage', plan: 'scale' });
    const key = (await createApiKey(handle, { sellerId: seller.id, name: 'k' })).key;
    for (const p of running) {
      const ready = await readyz(p);
      expect([ready.status, ready.json]).toEqual([200, { status: 'ready' }]);
      expect(await redisUp(p)).toBe('1');
    }

    await redis!.stop();
    redis = undefined;
    // Each process notices the closed connection on its own: checked every 100 ms, at most 300 times.
    const answers: number[] = [];
    for (let check = 0; check < 300; check++) {
      const states = await Promise.all(running.map(readyz));
      answers.push(...states.map((s) => s.status));
      if (states.every((s) => s.json?.degraded !== undefined)) break;
      await sleep(100);
    }
    for (const p of running) {
      const ready = await readyz(p);
      expect([ready.status, ready.json]).toEqual([200, { status: 'ready', degraded: ['redis'] }]);
      expect(await redisUp(p)).toBe('0');
    }
    const api = await Promise.all(Array.from({ length: 20 }, (_, i) => call(running[i % 2]!.url, 'GET', '/api/customers', { key })));
    console.log(`[redis outage] /readyz answers while Redis went away: ${JSON.stringify([...new Set(answers)])}; API answers ${JSON.stringify(api.map((r) => r.status))}`);
    expect(answers.every((status) => status === 200)).toBe(true);
    expect(api.every((r) => r.status === 200)).toBe(true);
  }, 120_000);
});
