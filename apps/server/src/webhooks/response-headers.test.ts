import { describe, expect, it } from 'vitest';
import { KEPT_HEADER_VALUE_LIMIT, KEPT_HEADERS_LIMIT, keptResponseHeaders } from './response-headers.js';

describe('keptResponseHeaders', () => {
  it('keeps names in lower case, joins repeated ones and redacts credential-like headers', () => {
    expect(keptResponseHeaders(['Content-Type', 'application/json', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'X-Api-Key', 'k', 'X-Trace', 'abc', 'x-trace', 'def']))
      .toEqual({ 'content-type': 'application/json', 'set-cookie': '[redacted], [redacted]', 'x-api-key': '[redacted]', 'x-trace': 'abc, def' });
  });

  it('keeps at most 20 headers of at most 200 characters each', () => {
    const raw = Array.from({ length: 30 }, (_, i) => [`x-h${i}`, 'v'.repeat(500)]).flat();
    const kept = keptResponseHeaders(raw);
    expect(Object.keys(kept)).toHaveLength(KEPT_HEADERS_LIMIT);
    expect(Object.keys(kept)[0]).toBe('x-h0');
    expect(Object.values(kept).every((value) => value.length === KEPT_HEADER_VALUE_LIMIT)).toBe(true);
  });
});
