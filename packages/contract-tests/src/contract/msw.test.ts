import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { scenarios } from '../scenarios/index.js';
import { Transcript } from '../support/transcript.js';
import { startMswTarget } from '../targets/msw-target.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

// The SDK's scenarios against the MSW handlers, each one also run against the server on SQLite: the two
// transcripts (statuses and bodies, ids and timestamps replaced by placeholders) must be equal.
const mswLog = createConformanceLog();
const serverLog = createConformanceLog();
let mock: Target;
let server: ServerTarget;

beforeAll(async () => {
  mock = await startMswTarget(mswLog);
  server = await startServerTarget('sqlite', serverLog);
});
afterAll(async () => {
  await mock?.close();
  await server?.close();
});

describe('MSW handlers: every scenario, compared with the server', () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      const onMock = new Transcript();
      await scenario.run(mock, onMock);
      const onServer = new Transcript();
      await scenario.run(server, onServer);
      expect(onMock.steps.length).toBeGreaterThan(0);
      expect(onMock.steps).toEqual(onServer.steps);
    });
  }

  it('every MSW response matched openapi.yaml', () => {
    console.log(`[conformance] msw: ${scenarios.length} scenarios, ${mswLog.seen.size} operation × status pairs seen, ${mswLog.violations.length} violations`);
    expect(mswLog.violations).toEqual([]);
    expect(serverLog.violations).toEqual([]);
  });
});
