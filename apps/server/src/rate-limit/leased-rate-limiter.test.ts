import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { createFlexibleRateLimiter } from './flexible-rate-limiter.js';
import { createLeasedRateLimiter, type LeasedRateLimiterOptions } from './leased-rate-limiter.js';
import { firstConnectionAttempt } from './redis-connection.js';

describe('the leased seller limiter (shares of a budget in a real Redis)', () => {
  let server: TestRedis;
  let redis: Redis;
  let other: Redis;
  let clock = 1_000_000;
  const now = () => clock;
  let seq = 0;
  const sellerKey = () => `seller-${(seq += 1)}`;
  const limiter = (options: Partial<LeasedRateLimiterOptions> = {}, client = redis) =>
    createLeasedRateLimiter({ name: 'seller', limit: 10, windowSeconds: 1, redis: client, now, ...options });

  /** Script calls Redis answered since the last reset: what the limiter cost in round trips. */
  async function scriptCalls(): Promise<number> {
    const stats = await other.info('commandstats');
    return [...stats.matchAll(/^cmdstat_(?:eval|evalsha):calls=(\d+),.*?failed_calls=(\d+)/gm)]
      .map(([, calls, failed]) => Number(calls) - Number(failed)) // a NOSCRIPT miss before the script is loaded
      .reduce((sum, calls) => sum + calls, 0);
  }

  beforeAll(async () => {
    server = await startRedisServer();
    [redis, other] = [new Redis(server.url), new Redis(server.url)];
    await Promise.all([firstConnectionAttempt(redis), firstConnectionAttempt(other)]);
  });
  afterAll(async () => {
    redis?.disconnect();
    other?.disconnect();
    await server?.stop();
  });
  beforeEach(async () => {
    await other.config('RESETSTAT');
  });

  it('makes one Redis call per share, not per request: 100 requests of a limit of 100 in 10 calls', async () => {
    const sellers = limiter({ limit: 100 });
    const key = sellerKey();
    const decisions = [];
    for (let i = 0; i < 101; i += 1) decisions.push(await sellers.consume(key));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    expect(decisions.at(-1)).toEqual({ allowed: false, limit: 100, remaining: 0, resetSeconds: 1 });
    expect(decisions.slice(0, 3).map((d) => d.remaining)).toEqual([99, 98, 97]);
    // The refusal is decided in memory: Redis said the window's budget was all granted.
    expect(await scriptCalls()).toBe(10);
    expect(await other.get(`rl:seller:100:${key}`)).toBe('100');
  });

  it('waits for one lease when requests of a seller arrive together', async () => {
    const sellers = limiter({ limit: 20 });
    const key = sellerKey();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => sellers.consume(key)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    expect(await scriptCalls()).toBe(10); // 20 / 2 per share
  });

  it('grants a share smaller than asked when less is left, then refuses with an exact reset', async () => {
    const key = sellerKey();
    // Another process leases 8 of 10 first (its shares are 80% of the limit).
    const first = limiter({ leaseFraction: 0.8 }, other);
    expect(await first.consume(key)).toMatchObject({ allowed: true, remaining: 9 });
    const second = limiter({ leaseFraction: 0.5 });
    const decisions = [];
    for (let i = 0; i < 3; i += 1) decisions.push(await second.consume(key));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(decisions[2]).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 1 });
    // The first process spends what it holds: the two never admit more than 10 together.
    const rest = [];
    for (let i = 0; i < 8; i += 1) rest.push((await first.consume(key)).allowed);
    expect(rest).toEqual([...Array(7).fill(true), false]);
    expect(await other.get(`rl:seller:10:${key}`)).toBe('10');
  });

  it('discards what is left of a share when the window ends, and starts the next window full', async () => {
    const key = sellerKey();
    const sellers = limiter({ leaseFraction: 0.5 });
    expect(await sellers.consume(key)).toMatchObject({ allowed: true, remaining: 9 }); // holds 4 more
    clock += 1_000; // the window has ended here; Redis still holds its count of 5 (it expires on its own clock)
    const next = await sellers.consume(key);
    // A new share (the last 5 of that window): the 4 tokens of the ended window are not spent.
    expect(next).toMatchObject({ allowed: true, remaining: 4 });
    expect(await other.get(`rl:seller:10:${key}`)).toBe('10');
    await other.del(`rl:seller:10:${key}`); // now it has ended in Redis too
    clock += 1_000;
    expect(await sellers.consume(key)).toMatchObject({ allowed: true, remaining: 9 });
    expect(await other.get(`rl:seller:10:${key}`)).toBe('5');
  });

  it("counts a seller's changed limit (sellers update --rate-limit) as its own budget from its next request", async () => {
    const key = sellerKey();
    const sellers = limiter();
    for (let i = 0; i < 10; i += 1) await sellers.consume(key, 10);
    expect((await sellers.consume(key, 10)).allowed).toBe(false);
    expect(await sellers.consume(key, 20)).toMatchObject({ allowed: true, limit: 20, remaining: 19 });
    expect(await sellers.consume(key, 3)).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    expect(await other.get(`rl:seller:3:${key}`)).toBe('1'); // a share of 3 is 1 token
  });

  it('spends its share while Redis goes away, then counts alone in memory (fails open to per-process limits)', async () => {
    const own = await startRedisServer();
    const client = new Redis(own.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    try {
      await firstConnectionAttempt(client);
      const sellers = limiter({ leaseFraction: 0.5 }, client);
      const key = sellerKey();
      expect(await sellers.consume(key)).toMatchObject({ allowed: true, remaining: 9 });
      await own.stop();
      expect(await sellers.consume(key)).toMatchObject({ allowed: true, remaining: 8 }); // from the share it holds
      clock += 1_000;
      const alone = [];
      for (let i = 0; i < 11; i += 1) alone.push(await sellers.consume(key));
      expect(alone.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
      expect(alone[0]).toMatchObject({ limit: 10, remaining: 9 });
    } finally {
      client.disconnect();
      await own.stop();
    }
  });

  it("shares the count with the CLI's one-token charges (rate-limiter-flexible's key)", async () => {
    const key = sellerKey();
    // The CLI charges one request at a time through rate-limiter-flexible (cli/seller-budget.ts).
    const cli = createFlexibleRateLimiter({ name: 'seller', limit: 10, windowSeconds: 1, redis: other });
    for (let i = 0; i < 9; i += 1) expect((await cli.consume(key)).allowed).toBe(true);
    const sellers = limiter();
    expect(await sellers.consume(key)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await sellers.consume(key)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
  });
});
