import { afterAll, beforeAll } from 'vitest';
import type { DialectName } from '../db/connect.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * A listening test server for the suite: started before its tests, closed after them.
 *
 * @example
 * const suite = useTestServer('sqlite', { http: { requestTimeoutMs: 300 } });
 * it('...', async () => { await suite.server.call('GET', '/healthz'); });
 */
export function useTestServer(
  dialect: DialectName,
  options: Parameters<typeof startTestServer>[1] = {},
): { readonly server: TestServer } {
  const suite: { server?: TestServer } = {};
  beforeAll(async () => {
    suite.server = await startTestServer(dialect, options);
  });
  afterAll(async () => {
    await suite.server?.close();
  });
  return {
    get server() {
      return suite.server!;
    },
  };
}
