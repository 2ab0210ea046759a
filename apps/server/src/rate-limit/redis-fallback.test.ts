import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/free-port.js';
import { startRedisServer } from '../test/redis-server.js';
import { connectRedis, firstConnectionAttempt } from './redis-connection.js';
import { createRequestLimits } from './request-limits.js';

function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

describe('rate limits while Redis is unreachable', () => {
  it('fail over to counting in memory, with one warning, instead of refusing or not limiting', async () => {
    const { log, lines } = capturedLogger();
    const redis = connectRedis(`redis://127.0.0.1:${await freePort()}`, log);
    try {
      await firstConnectionAttempt(redis);
      const limits = createRequestLimits({ perSecond: 2, redis })!;
      const decisions = [];
      for (let i = 0; i < 3; i += 1) decisions.push(await limits.sellers.consume('seller-1'));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
      expect(decisions[0]).toMatchObject({ limit: 2, remaining: 1 });
      const warnings = lines.filter((line) => line.level === 40);
      expect(warnings.map((w) => w.msg)).toEqual([
        'Redis is unreachable: each process counts rate limits on its own until it is back',
      ]);
    } finally {
      redis.disconnect();
    }
  });

  it('share the counts between two clients while Redis is up, with nothing logged', async () => {
    const server = await startRedisServer();
    const { log, lines } = capturedLogger();
    const [a, b] = [connectRedis(server.url, log), connectRedis(server.url, log)];
    try {
      await Promise.all([firstConnectionAttempt(a), firstConnectionAttempt(b)]);
      const [first, second] = [createRequestLimits({ perSecond: 3, redis: a })!, createRequestLimits({ perSecond: 3, redis: b })!];
      expect((await first.sellers.consume('seller-2')).remaining).toBe(2);
      expect((await second.sellers.consume('seller-2')).remaining).toBe(1);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    } finally {
      a.disconnect();
      b.disconnect();
      await server.stop();
    }
  });
});
