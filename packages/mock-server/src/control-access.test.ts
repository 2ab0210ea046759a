import { describe, expect, it } from 'vitest';
import { checkControlAccess, hostName, isLoopbackListen } from './control-access.js';

const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('checkControlAccess', () => {
  it('answers loopback Host names with any port, and refuses every other name with a 403', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:4010', 'localhost:9', 'LOCALHOST', '[::1]:4010', '[::1]']) {
      expect(() => checkControlAccess(headers({ host }), undefined, 'GET')).not.toThrow();
    }
    const foreign = ['attacker.example', 'attacker.example:4010', '127.0.0.1.nip.io', '10.0.0.5:4010', 'localhost.attacker.example'];
    for (const host of [...foreign, '[::1].evil.example', '[::1].evil.example:4010', '[::1]evil', 'localhost:80:80', '[::1]:1:2']) {
      expect(() => checkControlAccess(headers({ host }), undefined, 'GET')).toThrow(expect.objectContaining({ status: 403 }));
    }
    expect(() => checkControlAccess(headers({}), undefined, 'GET')).toThrow(/got none/);
  });

  it('without a token, refuses a request that changes state unless its Content-Type is JSON (415)', () => {
    const host = '127.0.0.1:4010';
    for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
      for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const values = { host, ...(type && { 'content-type': type }) };
        expect(() => checkControlAccess(headers(values), undefined, method)).toThrow(expect.objectContaining({ status: 415 }));
      }
      expect(() => checkControlAccess(headers({ host, 'content-type': 'application/json; charset=utf-8' }), undefined, method)).not.toThrow();
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(() => checkControlAccess(headers({ host }), undefined, method)).not.toThrow();
  });

  it('with a control token, requires it from every Host', () => {
    // The token is what a page cannot send, so a body-less POST with it is fine.
    expect(() => checkControlAccess(headers({ host: 'mock.internal', authorization: 'Bearer s3cret' }), 's3cret', 'POST')).not.toThrow();
    expect(() => checkControlAccess(headers({ host: 'mock.internal', authorization: 'Bearer nope' }), 's3cret', 'GET')).toThrow(/--control-token/);
    expect(() => checkControlAccess(headers({ host: '127.0.0.1', 'content-type': 'application/json' }), 's3cret', 'POST')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });

  it('reads the name of a Host header', () => {
    expect(hostName('Example.COM:80')).toBe('example.com');
    expect(hostName('[::1]:4010')).toBe('[::1]');
    expect(hostName('[::1]')).toBe('[::1]');
    expect(hostName('[::1].evil.example')).toBe('[::1].evil.example');
    expect(hostName(undefined)).toBeUndefined();
  });
});

describe('isLoopbackListen', () => {
  it('tells loopback listen addresses from others', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(isLoopbackListen(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'mock.internal']) expect(isLoopbackListen(host)).toBe(false);
  });
});
