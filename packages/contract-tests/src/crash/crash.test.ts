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
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`on ${dialect}: every acknowledged customer survives intact, nothing else appears`, async () => {
      const database = await createTestDatabase(dialect);
      const handle = await database.open();
      opened.push({ database, handle });
      const figures = await crashDuringWrites(database, handle, log);
      console.log(`[crash] ${dialect}: ${figures.acknowledged} acknowledged creates all intact after kill -9 and restart; ${figures.inFlight} in flight at the kill, ${figures.inFlightStored} of them stored`);
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(figures.inFlightStored).toBeLessThanOrEqual(figures.inFlight);
      passed += 1;
    });
  }

  it('every response matched openapi.yaml and no key reached the logs', () => {
    console.log(`[crash] ${passed}/2 crash scenarios passed`);
    expect(passed, 'both crash scenarios ran to the end').toBe(2);
    expect(log.violations).toEqual([]);
    expect(leakedKeys().leaked).toEqual([]);
  });
});
