import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/test-server.js';

function get(url: string, path: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(`${url}${path}`, { agent: false, headers: { connection: 'keep-alive' } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection }));
    })
      .on('error', reject)
      .end();
  });
}

describe('beginDraining (the first step of a shutdown)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server.close();
  });

  it('fails readiness at once and closes each keep-alive connection after its answer, while still answering', async () => {
    expect(await get(server.url, '/readyz')).toEqual({ status: 200, connection: 'keep-alive' });
    server.app.beginDraining();
    expect(server.app.draining).toBe(true);
    expect(await get(server.url, '/readyz')).toEqual({ status: 503, connection: 'close' });
    expect(await get(server.url, '/healthz')).toEqual({ status: 200, connection: 'close' });
  });
});
