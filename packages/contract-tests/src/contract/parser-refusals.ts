import { connect } from 'node:net';
import { LATEST_API_VERSION } from '@customers-api/core';
import { expect, it } from 'vitest';
import type { Target } from '../targets/target.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes no HTTP client would send on a fresh connection and reads the answer until the target closes it. */
function rawExchange(baseUrl: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });
}

const REFUSALS = [
  {
    label: 'a NUL byte in a header value',
    request: 'GET /api/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: sk_live_\0x\r\n\r\n',
    status: 400,
    error: 'Bad Request',
  },
  {
    label: 'headers over 16 KiB',
    request: `GET /api/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    status: 431,
    error: 'Request Header Fields Too Large',
  },
  {
    label: 'an HTTP/1.1 request without Host',
    request: 'GET /api/customers HTTP/1.1\r\nX-Api-Key: sk_live_x\r\n\r\n',
    status: 400,
    error: 'Bad Request',
  },
] as const;

/**
 * The parser-refusal family (and the HTTP/1.1 request without Host, which Node would refuse as bare), for every
 * target with an HTTP parser of its own (the server on each database, the
 * HTTP mock; MSW answers fetch calls and never parses bytes): what Node's parser refuses before any route runs
 * is answered like every other error, exactly `{ error, message }` with X-Request-Id, the latest
 * Customers-Version and Cache-Control: no-store, and the connection closed.
 */
export function describeParserRefusals(target: () => Target): void {
  for (const refusal of REFUSALS) {
    it(`answers ${refusal.label} with ${refusal.status}, the error body and the API's headers`, async () => {
      const answer = await rawExchange(target().baseUrl, refusal.request);
      expect(answer.status).toBe(refusal.status);
      expect(JSON.parse(answer.body)).toEqual({ error: refusal.error, message: expect.any(String) });
      expect(Object.keys(JSON.parse(answer.body) as object)).toEqual(['error', 'message']);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['x-request-id']).toMatch(/^\S+$/);
      expect(answer.headers['customers-version']).toBe(LATEST_API_VERSION);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers.connection).toBe('close');
    });
  }
}
