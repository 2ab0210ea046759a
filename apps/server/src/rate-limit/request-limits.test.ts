import { errors, isApiError } from '@customers-api/core';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { firstConnectionAttempt } from './redis-connection.js';
import { FAILED_AUTH_LIMIT, createRequestLimits } from './request-limits.js';

describe('request limits shared through Redis by two processes', () => {
  let server: TestRedis;
  let clients: Redis[];
  beforeAll(async () => {
    server = await startRedisServer();
    clients = [new Redis(server.url), new Redis(server.url)];
    await Promise.all(clients.map((client) => firstConnectionAttempt(client)));
  });
  afterAll(async () => {
    for (const client of clients ?? []) client.disconnect();
    await server?.stop();
  });

  async function status(limits: ReturnType<typeof createRequestLimits>, address: string): Promise<number> {
    const answer = await limits!.afterFailure(address, errors.apiKeyInvalid());
    return isApiError(answer) ? answer.status : 0;
  }

  it('counts failed authentications one by one (not in shares): the 20th anywhere is a 401, the 21st a 429', async () => {
    const [a, b] = clients.map((redis) => createRequestLimits({ perSecond: 100, redis }));
    const statuses = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT - 1; i += 1) statuses.push(await status(a, '192.0.2.7'));
    // A share would leave process A holding budget that process B cannot take.
    statuses.push(await status(b, '192.0.2.7'));
    statuses.push(await status(b, '192.0.2.7'), await status(a, '192.0.2.7'));
    expect(statuses).toEqual([...Array(FAILED_AUTH_LIMIT).fill(401), 429, 429]);
  });

  it("takes a seller's requests in shares from one budget across both processes", async () => {
    const [a, b] = clients.map((redis) => createRequestLimits({ perSecond: 50, redis })!);
    const started = performance.now();
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? a : b)!.sellers.consume('seller-shared')),
    );
    // Redis's clock ends the 1-second windows (none to inject): a burst within one window admits exactly 50; a machine
    // slow enough to spread it over more windows admits at most 50 per window it spanned (a bound a slow machine
    // only loosens, never breaks).
    const windowsSpanned = 1 + Math.floor((performance.now() - started) / 1000);
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeGreaterThanOrEqual(50);
    expect(allowed).toBeLessThanOrEqual(50 * windowsSpanned);
    for (const refused of decisions.filter((d) => !d.allowed)) expect(refused).toMatchObject({ remaining: 0, resetSeconds: 1 });
  });
});
