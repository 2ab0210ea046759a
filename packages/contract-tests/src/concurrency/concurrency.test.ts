import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, revokeApiKey, type DatabaseHandle } from '@customers-api/server';
import { createTestDatabase, type TestDatabase } from '@customers-api/server/testing';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { send } from '../support/http.js';
import { leakedKeys } from '../support/log-capture.js';
import { startServerProcess, type ServerProcess } from '../targets/server-process.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import { databaseBackedTarget } from '../targets/shared-database.js';
import type { Target } from '../targets/target.js';
import { oneEmailManyCreates, patchesOfOneCustomer, planLimitUnderRace } from './races.js';

const races = [
  ['100 concurrent creates with one email: one 201, 99 409s', oneEmailManyCreates],
  ['concurrent creates past a plan limit of 5 leave exactly 5', planLimitUnderRace],
  ['concurrent PATCHes of one customer leave one of the written states', patchesOfOneCustomer],
] as const;
let passed = 0;

describe('concurrency on SQLite (one server)', () => {
  const log = createConformanceLog();
  let server: ServerTarget;
  beforeAll(async () => {
    server = await startServerTarget('sqlite', log);
  });
  afterAll(async () => {
    await server?.close();
  });
  for (const [name, race] of races) {
    it(name, async () => {
      await race([server]);
      passed += 1;
    });
  }
  it('every response matched openapi.yaml', () => {
    expect(log.violations).toEqual([]);
  });
});

describe.each(['postgres', 'sqlite'] as const)('concurrency on %s, requests spread over two server processes', (dialect) => {
  const log = createConformanceLog();
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let processes: ServerProcess[] = [];
  let targets: Target[];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    handle = await database.open();
    // A seller exists before the processes start, so they seed no demo account (whose key they would print).
    await createSeller(handle, { name: 'Existing', plan: 'starter' });
    processes = await Promise.all([startServerProcess(database.url), startServerProcess(database.url)]);
    targets = processes.map((p, i) => databaseBackedTarget(`process ${i + 1}`, p.url, handle, log));
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await database?.dispose();
  });
  it('runs two distinct processes', () => {
    expect(new Set(processes.map((p) => p.pid)).size).toBe(2);
    expect(new Set(processes.map((p) => p.url)).size).toBe(2);
  });
  it('a key revoked in the database is refused at once by both processes (no cache)', async () => {
    const seller = await targets[0]!.newSeller();
    for (const target of targets) expect((await send(target, 'POST', '/api/customers', { key: seller.key, body: { first_name: 'K', last_name: target.name, email: `${target.name.replace(' ', '')}@example.com` } })).status).toBe(201);
    expect(await revokeApiKey(handle, seller.keyId!)).toBe(true);
    for (const target of targets) expect((await send(target, 'GET', `/api/customers/${'1'.repeat(8)}-1111-4111-8111-${'1'.repeat(12)}`, { key: seller.key })).status).toBe(401);
  });
  for (const [name, race] of races) {
    it(name, async () => {
      await race(targets);
      passed += 1;
    });
  }
  it('every response matched openapi.yaml and no key reached the logs', () => {
    expect(log.violations).toEqual([]);
    expect(leakedKeys().leaked).toEqual([]);
  });
});

describe('concurrency: figures', () => {
  it('ran every race on every setup', () => {
    console.log(`[concurrency] ${passed}/${races.length * 3} race scenarios passed (SQLite one server; PostgreSQL and SQLite over two processes)`);
    expect(passed).toBe(races.length * 3);
  });
});
