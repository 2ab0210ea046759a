import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A Redis client for the shared rate-limit counts. Commands never queue while the connection is down (the
 * limiter then counts in memory instead of making requests wait); the client reconnects on its own. One warning
 * per outage, one line when it is over.
 *
 * @example
 * const redis = connectRedis('redis://127.0.0.1:6379', app.log);
 */
export function connectRedis(url: string, log: FastifyBaseLogger): Redis {
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  let down = false;
  client.on('error', (error: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err: error }, 'Redis is unreachable: each process counts rate limits on its own until it is back');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis is reachable again: rate limits are shared between processes');
  });
  return client;
}

/**
 * Resolves once the client is connected or its first attempt failed (then the limiter counts in memory and the
 * client keeps trying), so a server starts with shared counts whenever Redis is there, and starts anyway when not.
 *
 * @example
 * await firstConnectionAttempt(redis);
 */
export function firstConnectionAttempt(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((settled) => {
    const done = () => {
      client.off('ready', done);
      client.off('error', done);
      settled();
    };
    client.once('ready', done);
    client.once('error', done);
  });
}
