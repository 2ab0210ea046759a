import { describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { missingHostRefusal, refusedRequestAnswer } from './refused-request.js';

describe('refusedRequestAnswer: the raw response', () => {
  it('is the status line, one CRLF-ended line per header, an empty line and the body', () => {
    const answer = refusedRequestAnswer(missingHostRefusal('1.1', undefined)!, 'req_2');
    const body = '{"error":"Bad Request","message":"An HTTP/1.1 request must carry a Host header"}';
    expect(answer.raw).toBe(
      'HTTP/1.1 400 Bad Request\r\n' +
        'Content-Type: application/json\r\n' +
        'Cache-Control: no-store\r\n' +
        `Content-Length: ${body.length}\r\n` +
        'X-Request-Id: req_2\r\n' +
        `Customers-Version: ${LATEST_API_VERSION}\r\n` +
        'Connection: close\r\n' +
        '\r\n' +
        body,
    );
  });
});
