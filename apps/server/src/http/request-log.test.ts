import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.js';
import { newCustomer, startTestServer, type TestSeller, type TestServer } from '../test/test-server.js';

describe('request logging', () => {
  const lines: string[] = [];
  let server: TestServer;
  let seller: TestSeller;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    server = await startTestServer('sqlite', { logger: createLogger('info', sink) });
    seller = await server.seller();
  });
  afterAll(async () => {
    await server.close();
  });

  it('writes one line per request with its id, and never the API key', async () => {
    lines.length = 0;
    const created = await server.call('POST', '/api/customers', {
      key: seller.key,
      body: newCustomer(),
      headers: { 'x-request-id': 'log-test-1' },
    });
    await server.call('GET', `/api/customers/${created.json.id}`, {
      headers: { authorization: `Bearer ${seller.key}`, 'x-request-id': 'log-test-2' },
    });
    await server.call('GET', '/nowhere', { key: seller.key, headers: { 'x-request-id': 'log-test-3' } });
    const parsed = lines.map((line) => JSON.parse(line));
    const expected = { 'log-test-1': ['POST', 201], 'log-test-2': ['GET', 200], 'log-test-3': ['GET', 404] } as const;
    for (const [id, [method, status]] of Object.entries(expected)) {
      // The client's id beside the server's own: a client's value never stands in for the server's.
      const mine = parsed.filter((entry) => entry.clientRequestId === id);
      expect(mine, id).toHaveLength(1);
      expect(mine[0].reqId, id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(mine[0], id).toMatchObject({ msg: 'request', status, method });
    }
    expect(lines.join('\n')).not.toContain(seller.key);
    expect(lines.join('\n')).not.toContain(seller.key.slice(8));
  });

  it('logs a client that goes away mid-body below error level, without a stack', async () => {
    lines.length = 0;
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /api/customers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n' +
            `X-API-Key: ${seller.key}\r\nX-Request-Id: abort-test-1\r\n\r\n{"first_name":`,
          () => setImmediate(() => socket.destroy()),
        );
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server notices the closed connection when it next reads: wait for its line about this request.
    await vi.waitFor(() => expect(lines.map((line) => JSON.parse(line)).filter((e) => e.clientRequestId === 'abort-test-1').length).toBeGreaterThan(0));
    const mine = lines.map((line) => JSON.parse(line)).filter((entry) => entry.clientRequestId === 'abort-test-1');
    expect(mine.map((entry) => entry.level).every((level: number) => level < 50), JSON.stringify(mine)).toBe(true);
    expect(JSON.stringify(mine)).not.toContain('"stack"');
    expect(mine.some((entry) => /aborted/.test(entry.msg)), JSON.stringify(mine)).toBe(true);
    expect(lines.join('\n')).not.toContain(seller.key);
  });

  it('redacts API key headers if a header object is ever logged', () => {
    const captured: string[] = [];
    const logger = createLogger('info', new Writable({ write(chunk, _e, done) { captured.push(String(chunk)); done(); } }));
    logger.info({ req: { headers: { 'x-api-key': 'sk_live_secret', authorization: 'Bearer sk_live_secret' } } }, 'x');
    expect(captured.join('')).not.toContain('sk_live_secret');
    expect(captured.join('')).toContain('[redacted]');
  });
});
