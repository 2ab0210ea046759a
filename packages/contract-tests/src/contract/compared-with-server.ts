import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceLog, type ConformanceLog } from '../conformance/checked-fetch.js';
import { scenarios } from '../scenarios/index.js';
import { Transcript } from '../support/transcript.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

/**
 * Every scenario against a mock target, each one also run against the server on SQLite: the two transcripts
 * (statuses and bodies, ids and timestamps replaced by placeholders) must be equal, and every response of
 * both must match openapi.yaml. `more` adds target-specific tests inside the same describe block.
 *
 * @example
 * describeComparedWithServer('MSW handlers', 'msw', startMswTarget);
 */
export function describeComparedWithServer(
  title: string,
  label: string,
  start: (log: ConformanceLog) => Promise<Target>,
  more: (target: () => Target) => void = () => {},
): void {
  const mockLog = createConformanceLog();
  const serverLog = createConformanceLog();
  let mock: Target;
  let server: ServerTarget;

  beforeAll(async () => {
    mock = await start(mockLog);
    server = await startServerTarget('sqlite', serverLog);
  });
  afterAll(async () => {
    await mock?.close();
    await server?.close();
  });

  describe(`${title}: every scenario, compared with the server`, () => {
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

    more(() => mock);

    it(`every ${label} response matched openapi.yaml`, () => {
      console.log(`[conformance] ${label}: ${scenarios.length} scenarios, ${mockLog.seen.size} operation × status pairs seen, ${mockLog.violations.length} violations`);
      expect(mockLog.violations).toEqual([]);
      expect(serverLog.violations).toEqual([]);
    });
  });
}
