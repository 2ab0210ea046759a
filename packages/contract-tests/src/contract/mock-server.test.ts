import { request as httpRequest } from 'node:http';
import { expect, it } from 'vitest';
import { startMockServerTarget } from '../targets/mock-server-target.js';
import { describeComparedWithServer } from './compared-with-server.js';
import { describeParserRefusals } from './parser-refusals.js';
import { scenarios } from '../scenarios/index.js';
import { describeTestMode } from './test-mode.js';

/** A request with any method over node:http (fetch refuses TRACE and CONNECT); resolves with status, Allow and body. */
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

// The SDK's scenarios against the stateful HTTP mock (the built bin, a real process), each one also run against
// the server on SQLite; then the methods fetch cannot send.
describeComparedWithServer('stateful HTTP mock', 'mock server', startMockServerTarget, (mock) => {
  describeParserRefusals(mock);
  describeTestMode('stateful HTTP mock', scenarios, mock);

  it('answers TRACE, PROPFIND, LINK, PUT and a plain OPTIONS with 405 + Allow', async () => {
    const { key } = await mock().newSeller();
    const allowed = { '/api/customers': 'GET, HEAD, POST', '/api/customers/3f1c2a9e-6d1b-4c7a-9f0e-2b8d5c4a7e61': 'GET, HEAD, PATCH, DELETE' };
    for (const [path, allow] of Object.entries(allowed)) {
      for (const method of ['TRACE', 'PROPFIND', 'LINK', 'PUT', 'OPTIONS']) {
        expect(await requestWith(method, `${mock().baseUrl}${path}`, { 'X-API-Key': key }), `${method} ${path}`).toEqual({
          status: 405,
          allow,
          body: { error: 'Method Not Allowed', message: `Method ${method} is not allowed here; use ${allow}` },
        });
      }
    }
  });
});
