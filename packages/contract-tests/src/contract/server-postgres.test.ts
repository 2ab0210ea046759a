import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { scenarios, runScenarios } from '../scenarios/index.js';
import { leakedKeys } from '../support/log-capture.js';
import { describeParserRefusals } from './parser-refusals.js';
import { describeTestMode } from './test-mode.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';

const log = createConformanceLog();
let server: ServerTarget;

beforeAll(async () => {
  server = await startServerTarget('postgres', log);
});
afterAll(async () => {
  await server?.close();
});

describe('reference server on PostgreSQL: every scenario', () => {
  runScenarios(scenarios, () => server);
});

describeTestMode('reference server on PostgreSQL', scenarios, () => server);

describe('reference server on PostgreSQL: requests the HTTP parser refuses', () => {
  describeParserRefusals(() => server);
});

describe('reference server on PostgreSQL: conformance', () => {
  it('every response matched openapi.yaml and no key reached the logs', () => {
    const { leaked, keys, lines } = leakedKeys();
    console.log(`[conformance] server (postgres): ${log.seen.size} operation × status pairs seen, ${log.violations.length} violations; ${keys} keys vs ${lines} log lines, ${leaked.length} leaked`);
    expect(log.violations).toEqual([]);
    expect(leaked).toEqual([]);
  });
});
