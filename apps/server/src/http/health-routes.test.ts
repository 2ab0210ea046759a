import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../build-app.js';
import { LATEST_MIGRATION } from '../db/migrations.js';
import { freePort } from '../test/free-port.js';
import { startRedisServer, type TestRedis } from '../test/redis-server.js';
import { newTestSeller } from '../test/sellers-and-endpoints.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/test-database.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { createSecretBox } from '../webhooks/secret-box.js';

describe.each(DIALECTS)('/healthz and /readyz on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('is ready with a migrated database; not while its schema is behind (migrations running)', async () => {
    const handle = await database.open();
    const app = await buildApp({ database: handle });
    try {
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      await sql`delete from kysely_migration where name = ${LATEST_MIGRATION}`.execute(handle.db);
      const behind = await app.inject('/readyz');
      expect(behind.statusCode).toBe(503);
      expect(behind.headers['retry-after']).toBe('1');
      expect(behind.json()).toEqual({
        error: 'Service Unavailable',
        message: expect.stringMatching(/^Not ready: database migrations are running \(schema at 0\d\d_\w+, this version needs \d{3}_/),
      });
      await sql`insert into kysely_migration (name, timestamp) values (${LATEST_MIGRATION}, ${new Date().toISOString()})`.execute(handle.db);
      expect((await app.inject('/readyz')).statusCode).toBe(200);
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('stays alive but is not ready when the database is gone', async () => {
    const handle = await database.open();
    const app = await buildApp({ database: handle });
    try {
      await handle.close();
      const live = await app.inject('/healthz');
      expect(live.statusCode).toBe(200);
      expect(live.json()).toEqual({ status: 'ok', database: dialect });
      const ready = await app.inject('/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().message).toBe('Not ready: the database does not answer');
    } finally {
      await app.close();
    }
  });

  it('is not ready once shutdown has begun', async () => {
    const handle = await database.open();
    const app = await buildApp({ database: handle });
    // A kept-alive connection still reaches the app after close() has begun, until it is idle-closed.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let during: { status: number; body: string } | undefined;
    app.addHook('preClose', async () => {
      during = await get(port, agent);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    expect(await get(port, agent)).toEqual({ status: 200, body: '{"status":"ready"}' });
    await app.close();
    agent.destroy();
    await handle.close();
    expect(during).toEqual({ status: 503, body: '{"error":"Service Unavailable","message":"Not ready: shutting down"}' });
  });
});

describe('/readyz with an endpoint sealed by another webhook key', () => {
  it('stays ready but names webhook_key degraded: that endpoint\'s events wait, and the operator is told', async () => {
    const database = await createTestDatabase('sqlite');
    const handle = await database.open();
    const mine = createSecretBox(randomBytes(32));
    const app = await buildApp({ database: handle, webhooks: { secrets: mine } });
    try {
      const sellerId = await newTestSeller(handle);
      expect((await createEndpoint(handle, mine, sellerId, { url: 'https://receiver.example/a' })).kind).toBe('created');
      const ready = await app.inject('/readyz');
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }]);
      // The CLI read another key file: the endpoint it created is sealed with a key this process does not have.
      expect((await createEndpoint(handle, createSecretBox(randomBytes(32)), sellerId, { url: 'https://receiver.example/b' })).kind).toBe('created');
      const degraded = await app.inject('/readyz');
      expect([degraded.statusCode, degraded.json()]).toEqual([200, { status: 'ready', degraded: ['webhook_key'] }]);
    } finally {
      await app.close();
      await handle.close();
      await database.dispose();
    }
  });
});

describe('/readyz with Redis', () => {
  let database: TestDatabase;
  let redisServer: TestRedis;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    redisServer = await startRedisServer();
  });
  afterAll(async () => {
    await redisServer?.stop();
    await database.dispose();
  });

  it('is ready with the configured Redis down, and names it degraded: the limiter fails open, so traffic is welcome', async () => {
    const handle = await database.open();
    const up = new Redis(redisServer.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const down = new Redis(`redis://127.0.0.1:${await freePort()}`, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    down.on('error', () => {});
    const withUp = await buildApp({ database: handle, rateLimit: { perSecond: 100, redis: up } });
    const withDown = await buildApp({ database: handle, rateLimit: { perSecond: 100, redis: down } });
    try {
      if (up.status !== 'ready') await new Promise((resolve) => up.once('ready', resolve));
      const ready = await withUp.inject('/readyz');
      expect([ready.statusCode, ready.json()]).toEqual([200, { status: 'ready' }]);
      const degraded = await withDown.inject('/readyz');
      expect([degraded.statusCode, degraded.json()]).toEqual([200, { status: 'ready', degraded: ['redis'] }]);
      expect((await withDown.inject('/healthz')).statusCode).toBe(200);
    } finally {
      await withUp.close();
      await withDown.close();
      up.disconnect();
      down.disconnect();
      await handle.close();
    }
  });
});

function get(port: number, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/readyz', agent }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}
