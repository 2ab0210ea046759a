import { describe, expect, it } from 'vitest';
import { isSameOriginRequest } from './same-origin.js';

describe('isSameOriginRequest', () => {
  const host = '127.0.0.1:3000';
  it.each([
    [{ host, origin: 'http://127.0.0.1:3000' }, true],
    [{ host, origin: 'https://127.0.0.1:3000' }, true],
    [{ host, referer: 'http://127.0.0.1:3000/dashboard/settings/api-keys' }, true],
    [{ host: 'internal:8080', 'x-forwarded-host': 'app.example.com', origin: 'https://app.example.com' }, true],
    [{ host: 'App.Example.com', origin: 'https://app.example.com' }, true],
    [{ host, origin: 'http://127.0.0.1:3001' }, false],
    [{ host, origin: 'http://localhost:3000' }, false],
    [{ host, origin: 'https://evil.example', referer: 'http://127.0.0.1:3000/' }, false],
    [{ host, origin: 'null' }, false],
    [{ host, origin: 'not a url' }, false],
    [{ host }, false],
    [{ origin: 'http://127.0.0.1:3000' }, false],
  ])('%j → %s', (headers, expected) => {
    expect(isSameOriginRequest(headers)).toBe(expected);
  });
});
