import { describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '../versions/api-version.js';
import { missingHostRefusal, parserRefusal, refusedRequestAnswer } from './refused-request.js';

describe('the answer to a request refused before routing', () => {
  it("maps the parser's codes: 431 for headers over the limit, 408 for a stalled request, 400 for anything else", () => {
    expect(parserRefusal('HPE_HEADER_OVERFLOW').toBody()).toEqual({ error: 'Request Header Fields Too Large', message: 'Request headers are too large' });
    expect(parserRefusal('ERR_HTTP_REQUEST_TIMEOUT').status).toBe(408);
    for (const code of ['HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_METHOD', undefined]) {
      expect(parserRefusal(code).toBody()).toEqual({ error: 'Bad Request', message: 'The request is not valid HTTP' });
    }
  });

  it("is the error body with every error answer's headers, the request id and the latest version, as raw HTTP/1.1", () => {
    const answer = refusedRequestAnswer(parserRefusal('HPE_HEADER_OVERFLOW'), 'req_1');
    const body = '{"error":"Request Header Fields Too Large","message":"Request headers are too large"}';
    expect(answer.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'Content-Length': String(body.length),
      'X-Request-Id': 'req_1',
      'Customers-Version': LATEST_API_VERSION,
      Connection: 'close',
    });
    expect(answer.body).toBe(body);
    expect(answer.raw.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\n')).toBe(true);
    expect(answer.raw.endsWith(`\r\n\r\n${body}`)).toBe(true);
  });

  it('refuses an HTTP/1.1 request without Host, and nothing else', () => {
    expect(missingHostRefusal('1.1', undefined)?.toBody()).toEqual({ error: 'Bad Request', message: 'An HTTP/1.1 request must carry a Host header' });
    expect(missingHostRefusal('1.1', '')).toBeUndefined();
    expect(missingHostRefusal('1.1', 'api.example')).toBeUndefined();
    expect(missingHostRefusal('1.0', undefined)).toBeUndefined();
  });
});
