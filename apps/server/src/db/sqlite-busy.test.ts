import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlitePath } from './connect.js';
import { newCustomer, startTestServer, type TestServer } from '../test/test-server.js';

// SQLite's answer to "the database does not answer": another process holds the write lock past the busy timeout
// (5 s). The create must get the same 503 + Retry-After as a PostgreSQL outage, never a 500, and succeed after.

describe('a SQLite file locked by another process past the busy timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a create 503 with Retry-After while the lock is held, and 201 once it is released', async () => {
    const { key } = await server.seller();
    const other = new SqliteDatabase(sqlitePath(server.database.url));
    try {
      other.exec('begin exclusive');
      const locked = await server.call('POST', '/api/customers', { key, body: newCustomer() });
      expect(locked.status).toBe(503);
      expect(locked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(locked.json).toEqual({ error: 'Service Unavailable', message: 'Not ready: the database does not answer' });
      other.exec('commit');
      expect((await server.call('POST', '/api/customers', { key, body: newCustomer() })).status).toBe(201);
    } finally {
      other.close();
    }
  });
});
