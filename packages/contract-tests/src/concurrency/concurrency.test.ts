import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeller, type DatabaseHandle } from '@customers-api/server';
import { createTestDatabase, type TestDatabase } from '@customers-api/server/testing';
import { createConformanceLog } from '../conformance/checked-fetch.js';
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

describe('concurrency on PostgreSQL, requests spread over two server processes', () => {
  const log = createConformanceLog();
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let processes: ServerProcess[] = [];
  let targets: Target[];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
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
  for (const [name, race] of races) {
    it(name, async () => {
      await race(targets);
      passed += 1;
    });
  }
  it('every response matched openapi.yaml and no key reached the logs', () => {
    console.log(`[concurrency] ${passed}/${races.length * 2} race scenarios passed (SQLite one server; PostgreSQL two processes)`);
    expect(log.violations).toEqual([]);
    expect(leakedKeys().leaked).toEqual([]);
  });
});

