import { describe, expect, it } from 'vitest';
import { rawExchange } from '../test/raw-http.js';
import { useTestServer } from '../test/use-test-server.js';

describe('requests without Host', () => {
  const suite = useTestServer('sqlite');

  it('answers an HTTP/1.1 request without Host with a JSON 400 and an X-Request-Id, then closes', async () => {
    const response = await rawExchange(suite.server.url, 'GET /healthz HTTP/1.1\r\nX-Request-Id: no-host-1\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toBe('no-host-1');
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(response.body)).toEqual({ error: 'Bad Request', message: 'An HTTP/1.1 request must carry a Host header' });
  });

  it('gives a new request id when the caller sent none', async () => {
    const response = await rawExchange(suite.server.url, 'POST /api/customers HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}');
    expect(response.status).toBe(400);
    expect(response.headers['x-request-id']).toMatch(/^\S+$/);
  });

  it('serves HTTP/1.0 requests, which need no Host', async () => {
    const response = await rawExchange(suite.server.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'ok' });
  });
});
