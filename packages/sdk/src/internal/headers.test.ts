import { expect, it } from 'vitest';
import { requestIdOf } from './headers';
import { redactHeaders } from './redact-headers';

it('redacts every credential header, in any letter case, and keeps the rest lower-cased', () => {
  const headers = new Headers({
    'X-API-Key': 'sk_live_secret',
    Authorization: 'Bearer secret',
    'Proxy-Authorization': 'Basic secret',
    Cookie: 'session=secret',
    'Set-Cookie': 'session=secret',
    'Content-Type': 'application/json',
    'X-Request-Id': 'req_1',
  });
  expect(redactHeaders(headers)).toEqual({
    'x-api-key': '[redacted]',
    authorization: '[redacted]',
    'proxy-authorization': '[redacted]',
    cookie: '[redacted]',
    'set-cookie': '[redacted]',
    'content-type': 'application/json',
    'x-request-id': 'req_1',
  });
});

it('reads the request id, or undefined when there is none', () => {
  expect(requestIdOf(new Headers({ 'X-Request-Id': 'req_1' }))).toBe('req_1');
  expect(requestIdOf(new Headers())).toBeUndefined();
});
