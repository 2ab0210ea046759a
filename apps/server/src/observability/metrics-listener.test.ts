import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawExchange } from '../test/raw-http.js';
import { startMetricsListener, type MetricsListener } from './metrics-listener.js';
import { createServerMetrics } from './metrics.js';
import { hostNameOf } from './own-host-names.js';

// The metrics listener holds no request longer than the API would, and answers only its own names (issue 36).
describe('the metrics listener', () => {
  let listener: MetricsListener;
  beforeAll(async () => {
    listener = await startMetricsListener(createServerMetrics(), { port: 0, host: '127.0.0.1', requestTimeoutMs: 500 });
  });
  afterAll(() => listener.close());

  it('answers its own names and refuses any other Host with a 421 in the API’s error body', async () => {
    const { port } = new URL(listener.url);
    for (const host of [`127.0.0.1:${port}`, 'localhost', `[::1]:${port}`]) {
      expect((await rawExchange(listener.url, `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).status).toBe(200);
    }
    for (const host of ['attacker.example', `attacker.example:${port}`, '[::1].evil.example', '127.0.0.1.nip.io']) {
      const refused = await rawExchange(listener.url, `GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(refused.status).toBe(421);
      expect(JSON.parse(refused.body)).toEqual({ error: 'Misdirected Request', message: expect.stringContaining(`(got ${hostNameOf(host)})`) });
    }
  });

  it('answers a request whose headers never end with the API’s 408, then closes the connection', async () => {
    // The connection stays open until the listener gives up: rawExchange resolves only when it is closed.
    const stalled = await rawExchange(listener.url, 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual({ error: 'Request Timeout', message: 'The request was not received in time' });
  });
});
