import { afterAll, describe, expect, it } from 'vitest';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { leakedKeys } from '../support/log-capture.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import { fuzzServer } from './fuzz-server.js';

// FUZZ_RUNS requests on SQLite (5,000 by default, `pnpm fuzz:long` for more) and a fifth of that on PostgreSQL.
const runs = Number(process.env.FUZZ_RUNS ?? 5_000);
const started: ServerTarget[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.close()));
});

describe('fuzzing the server from the schemas of openapi.yaml', () => {
  for (const [dialect, count] of [['sqlite', runs], ['postgres', Math.ceil(runs / 5)]] as const) {
    it(`${count} generated and mutated requests on ${dialect}`, { timeout: 600_000 }, async () => {
      const server = await startServerTarget(dialect, createConformanceLog());
      started.push(server);
      const stats = await fuzzServer(server, count);
      const statuses = Object.entries(stats.byStatus).map(([status, n]) => `${status}×${n}`).join(' ');
      console.log(`[fuzz] ${dialect}: ${stats.requests} requests, 0 property failures; statuses ${statuses}`);
      expect(stats.requests).toBe(count);
      // The generators must reach both sides: accepted writes and every kind of refusal.
      for (const status of ['200', '201', '204', '400', '401', '404', '413']) expect(stats.byStatus[status], status).toBeGreaterThan(0);
      expect(server.log.violations).toEqual([]);
    });
  }

  it('no API key reached the server logs', () => {
    expect(leakedKeys().leaked).toEqual([]);
  });
});
