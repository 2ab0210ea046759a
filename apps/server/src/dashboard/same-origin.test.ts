import { describe, expect, it } from 'vitest';
import { isSameOriginRequest, type OriginParts } from './same-origin.js';

const at = (host: string, headers: OriginParts['headers'], protocol: 'http' | 'https' = 'http'): OriginParts => ({ host, protocol, headers });

describe('isSameOriginRequest', () => {
  const host = '127.0.0.1:3000';
  it.each([
    [at(host, { origin: 'http://127.0.0.1:3000' }), true],
    [at(host, { referer: 'http://127.0.0.1:3000/dashboard/settings/api-keys' }), true],
    [at('App.Example.com', { origin: 'https://app.example.com' }, 'https'), true],
    [at('app.example.com:443', { origin: 'https://app.example.com' }, 'https'), true],
    [at('app.example.com', { origin: 'https://app.example.com:443' }, 'https'), true],
    // The scheme counts: an https page is another origin than this http server, and the reverse.
    [at(host, { origin: 'https://127.0.0.1:3000' }), false],
    [at('app.example.com', { origin: 'http://app.example.com' }, 'https'), false],
    // So does the port.
    [at(host, { origin: 'http://127.0.0.1:3001' }), false],
    [at('app.example.com', { origin: 'https://app.example.com:8443' }, 'https'), false],
    [at(host, { origin: 'http://localhost:3000' }), false],
    [at(host, { origin: 'https://evil.example', referer: 'http://127.0.0.1:3000/' }), false],
    [at(host, { origin: 'null' }), false],
    [at(host, { origin: 'not a url' }), false],
    [at(host, {}), false],
    [at('', { origin: 'http://127.0.0.1:3000' }), false],
  ])('%j → %s', (request, expected) => {
    expect(isSameOriginRequest(request)).toBe(expected);
  });
});
