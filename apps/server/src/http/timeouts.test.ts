import { describe, expect, it } from 'vitest';
import { rawExchange } from '../test/raw-http.js';
import { useTestServer } from '../test/use-test-server.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeouts } from './timeouts.js';

// The 408s below can only come from this timeout (Node's default is minutes, past the test's own timeout), so no
// wall-clock bound on how long they took is asserted: a loaded machine answers them later, never differently.
const TIMEOUT_MS = 300;
const REQUEST_TIMEOUT = { error: 'Request Timeout', message: 'The request was not received in time' };

describe('request timeouts', () => {
  const suite = useTestServer('sqlite', { http: { requestTimeoutMs: TIMEOUT_MS } });

  const host = () => new URL(suite.server.url).host;

  it('answers 408 and closes when a declared body never arrives, even on the sign-in form without any key', async () => {
    const response = await rawExchange(
      suite.server.url,
      `POST /dashboard/login?token=${'A'.repeat(43)} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${suite.server.url}\r\n` +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nX-Request-Id: stalled-body-1\r\n\r\nab',
    );
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(REQUEST_TIMEOUT);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toBe('stalled-body-1');
  });

  it('answers 408 to an API request whose body stalls, with a new request id when the caller sent none', async () => {
    const { key } = await suite.server.seller();
    const response = await rawExchange(
      suite.server.url,
      `POST /api/customers HTTP/1.1\r\nHost: ${host()}\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 50\r\n\r\n{"first',
    );
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(REQUEST_TIMEOUT);
    expect(response.headers['x-request-id']).toMatch(/^\S+$/);
  });

  it('answers 408 when the headers themselves never end (slowloris)', async () => {
    const response = await rawExchange(suite.server.url, `GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nX-Slow: a`);
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toEqual(REQUEST_TIMEOUT);
    expect(response.headers['x-request-id']).toMatch(/^\S+$/);
  });

  it('lets a request that arrives in time through', async () => {
    const response = await rawExchange(suite.server.url, `GET /healthz HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`);
    expect(response.status).toBe(200);
  });
});

describe('requestTimeouts', () => {
  it('answers a stalled request within 30 s by default: the check interval is taken off the deadline', () => {
    const timeouts = requestTimeouts();
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(timeouts.requestTimeout + timeouts.connectionsCheckingInterval).toBeLessThanOrEqual(30_000);
    expect(timeouts.requestTimeout).toBeGreaterThanOrEqual(29_000);
    expect(timeouts.socketTimeout).toBeGreaterThan(30_000);
  });

  it('scales the check interval down for short deadlines', () => {
    expect(requestTimeouts(300)).toEqual({ requestTimeout: 270, connectionsCheckingInterval: 30, socketTimeout: 600 });
    expect(requestTimeouts(1).requestTimeout).toBe(1);
  });
});
