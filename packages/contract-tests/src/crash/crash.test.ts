import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@customers-api/server';
import { createTestDatabase, type TestDatabase } from '@customers-api/server/testing';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { leakedKeys } from '../support/log-capture.js';
import { crashDuringWrites } from './crash-safety.js';

const log = createConformanceLog();
const opened: Array<{ database: TestDatabase; handle: DatabaseHandle }> = [];
let passed = 0;

afterAll(async () => {
  for (const { database } of opened) await database.dispose();
});

describe('crash safety: kill -9 of the server process in the middle of a write load', () => {
  for (const [dialect, processes] of [['sqlite', 1], ['postgres', 1], ['postgres', 2]] as const) {
    const where = processes === 1 ? dialect : `${dialect}, one of two server processes killed`;
    it(`on ${where}: every acknowledged customer survives intact, nothing else appears`, async () => {
      const database = await createTestDatabase(dialect);
      const handle = await database.open();
      opened.push({ database, handle });
      const figures = await crashDuringWrites(database, handle, log, { processes });
      console.log(`[crash] ${where}: ${figures.acknowledged} acknowledged creates all intact after kill -9 and restart; ${figures.inFlight} in flight at the kill, ${figures.inFlightStored} of them stored`);
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(figures.inFlightStored).toBeLessThanOrEqual(figures.inFlight);
      passed += 1;
      // Hundreds of requests, a kill and a restart: a minute or more on a 2-core machine shared with other runs.
    }, 180_000);
  }

  it('every response matched openapi.yaml and no key reached the logs', () => {
    console.log(`[crash] ${passed}/3 crash scenarios passed`);
    expect(passed, 'every crash scenario ran to the end').toBe(3);
    expect(log.violations).toEqual([]);
    expect(leakedKeys().leaked).toEqual([]);
  });
});
