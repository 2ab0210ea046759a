import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceLog } from '../conformance/checked-fetch.js';
import { scenarios } from '../scenarios/index.js';
import { Transcript } from '../support/transcript.js';
import { startMockServerTarget } from '../targets/mock-server-target.js';
import { startServerTarget, type ServerTarget } from '../targets/server-target.js';
import type { Target } from '../targets/target.js';

// The SDK's scenarios against the stateful HTTP mock (the built bin, a real process), each one also run against
// the server on SQLite: the two transcripts (ids and timestamps replaced by placeholders) must be equal.
const mockLog = createConformanceLog();
const serverLog = createConformanceLog();
let mock: Target;
let server: ServerTarget;

beforeAll(async () => {
  mock = await startMockServerTarget(mockLog);
  server = await startServerTarget('sqlite', serverLog);
});
afterAll(async () => {
  await mock?.close();
  await server?.close();
});

/** A request with any method over node:http (fetch refuses TRACE and CONNECT); resolves with status and Allow. */
function requestWith(method: string, url: string, headers: Record<string, string>): Promise<{ status: number; allow: string | undefined; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('stateful HTTP mock: every scenario, compared with the server', () => {
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

  it('answers TRACE, PROPFIND, LINK, PUT and a plain OPTIONS with 405 + Allow', async () => {
    const { key } = await mock.newSeller();
    const allowed = { '/api/customers': 'POST', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61': 'GET, PATCH, DELETE' };
    for (const [path, allow] of Object.entries(allowed)) {
      for (const method of ['TRACE', 'PROPFIND', 'LINK', 'PUT', 'OPTIONS']) {
        expect(await requestWith(method, `${mock.baseUrl}${path}`, { 'X-API-Key': key }), `${method} ${path}`).toEqual({
          status: 405,
          allow,
          body: { error: 'Method Not Allowed', message: `Method ${method} is not allowed here; use ${allow}` },
        });
      }
    }
  });

  it('every mock response matched openapi.yaml', () => {
    console.log(`[conformance] mock server: ${scenarios.length} scenarios, ${mockLog.seen.size} operation × status pairs seen, ${mockLog.violations.length} violations`);
    expect(mockLog.violations).toEqual([]);
    expect(serverLog.violations).toEqual([]);
  });
});
