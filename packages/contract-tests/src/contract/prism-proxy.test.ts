import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedFetch, createConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { validRequestsOnly, runScenarios } from '../scenarios/index.js';
import { startPrism, type PrismProcess } from '../targets/prism.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

// The server (SQLite) scenarios once more, through Prism's validation proxy with violations as errors. Prism 5.14.2
// validates requests too and answers invalid ones itself (an undocumented 422; a missing key: its own 401;
// malformed JSON: no answer at all), so only the scenarios whose requests are all valid go through it, selected
// by their `validRequestsOnly` flag. Our own validator checks every response of every file anyway.
const log = createConformanceLog();
let server: ServerTarget;
let prism: PrismProcess;
let target: Target;

beforeAll(async () => {
  server = await startServerTarget('sqlite', createConformanceLog());
  prism = await startPrism({ proxyTo: server.baseUrl });
  target = { ...server, name: 'server (sqlite) via prism proxy', baseUrl: prism.url, fetch: checkedFetch(createResponseValidator(), log), log };
});
afterAll(async () => {
  await prism?.stop();
  await server?.close();
});

describe('Prism validation proxy in front of the server (SQLite)', () => {
  it('selects the scenarios with valid requests only', () => {
    expect(validRequestsOnly.length).toBeGreaterThanOrEqual(8);
  });

  runScenarios(validRequestsOnly, () => target);

  it('Prism reported no violation and every response matched openapi.yaml', () => {
    const violations = prism.output().split('\n').filter((line) => /violation|✖|error/i.test(line));
    console.log(`[prism proxy] ${validRequestsOnly.length} scenarios through prism proxy --errors, ${violations.length} Prism violation lines`);
    expect(violations).toEqual([]);
    expect(log.violations).toEqual([]);
  });
});
