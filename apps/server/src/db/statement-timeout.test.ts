import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../build-app.js';
import { resolveConfig } from '../config.js';
import { createServerMetrics } from '../observability/metrics.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { newCustomer } from '../test/test-server.js';
import { createApiKey } from './api-keys.js';
import { connectDatabase, DEFAULT_STATEMENT_TIMEOUT_MS, type DatabaseHandle } from './connect.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../http/timeouts.js';
import { migrateToLatest } from './migrations.js';
import { createSeller } from './sellers.js';

// Issue 35: a statement PostgreSQL cancels for its statement_timeout (57014) is the database not answering in time:
// 503 with Retry-After, counted as a database error of kind `timeout`. Another connection holds a lock for as long
// as the test says, so the statement is cancelled whatever the machine's speed (the verdict counts, never times).

describe('the PostgreSQL statement timeout', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const metrics = createServerMetrics();

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    handle = connectDatabase(database.url, { poolSize: 3, statementTimeoutMs: 250, onUnavailable: metrics.databaseError });
    // Migrations lift the timeout for themselves: they run here with it set, and must not be cut off.
    await migrateToLatest(handle);
  });
  afterAll(async () => {
    await handle.close();
    await database.dispose();
  });

  const timeouts = async () => {
    const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === 'customers_database_errors_total');
    return metric?.values.find((v) => v.labels.kind === 'timeout')?.value ?? 0;
  };

  it('answers 503 with Retry-After while a lock holds the statement past the timeout, counts it, and 200 once released', async () => {
    const app = await buildApp({ database: handle, metrics });
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      const seller = await createSeller(handle, { name: 's', plan: 'test' });
      const { key } = await createApiKey(handle, { sellerId: seller.id, name: 'k' });
      const headers = { 'x-api-key': key, 'content-type': 'application/json' };
      expect((await app.inject({ method: 'POST', url: '/api/customers', headers, payload: newCustomer() })).statusCode).toBe(201);
      const before = await timeouts();

      await locker.query('begin');
      await locker.query('lock table customers in access exclusive mode');
      for (const request of [{ method: 'GET' as const, url: '/api/customers' }, { method: 'POST' as const, url: '/api/customers', payload: newCustomer() }]) {
        const held = await app.inject({ ...request, headers });
        expect(held.statusCode, held.body).toBe(503);
        expect(held.headers['retry-after']).toMatch(/^\d+$/);
        expect(held.json()).toEqual({ error: 'Service Unavailable', message: 'Not ready: the database does not answer' });
      }
      expect(await timeouts()).toBe(before + 2);
      await locker.query('rollback');

      const listed = await app.inject({ method: 'GET', url: '/api/customers', headers });
      expect(listed.statusCode).toBe(200);
      // The refused create stored nothing.
      expect(listed.json().data).toHaveLength(1);
      expect(await timeouts()).toBe(before + 2);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
      await app.close();
    }
  });

  it('is on by default for serve, below the request timeout, and configurable by flag or environment', () => {
    expect(DEFAULT_STATEMENT_TIMEOUT_MS).toBeLessThan(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(resolveConfig({}, {}).statementTimeoutMs).toBe(DEFAULT_STATEMENT_TIMEOUT_MS);
    expect(resolveConfig({ statementTimeout: '2500' }, {}).statementTimeoutMs).toBe(2500);
    expect(resolveConfig({}, { STATEMENT_TIMEOUT_MS: '0' }).statementTimeoutMs).toBe(0);
    expect(() => resolveConfig({ statementTimeout: '5s' }, {})).toThrow(/statement timeout "5s"/);
  });
});
