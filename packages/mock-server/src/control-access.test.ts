import { describe, expect, it } from 'vitest';
import { checkControlAccess, hostName, isLoopbackListen } from './control-access.js';

const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('checkControlAccess', () => {
  it('answers loopback Host names with any port, and refuses every other name with a 403', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:4010', 'localhost:9', 'LOCALHOST', '[::1]:4010', '[::1]']) {
      expect(() => checkControlAccess(headers({ host }), undefined)).not.toThrow();
    }
    for (const host of ['attacker.example', 'attacker.example:4010', '127.0.0.1.nip.io', '10.0.0.5:4010', 'localhost.attacker.example']) {
      expect(() => checkControlAccess(headers({ host }), undefined)).toThrow(expect.objectContaining({ status: 403 }));
    }
    expect(() => checkControlAccess(headers({}), undefined)).toThrow(/got none/);
  });

  it('with a control token, requires it from every Host', () => {
    expect(() => checkControlAccess(headers({ host: 'mock.internal', authorization: 'Bearer s3cret' }), 's3cret')).not.toThrow();
    expect(() => checkControlAccess(headers({ host: 'mock.internal', authorization: 'Bearer nope' }), 's3cret')).toThrow(/--control-token/);
    expect(() => checkControlAccess(headers({ host: '127.0.0.1' }), 's3cret')).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('reads the name of a Host header', () => {
    expect(hostName('Example.COM:80')).toBe('example.com');
    expect(hostName('[::1]:4010')).toBe('[::1]');
    expect(hostName(undefined)).toBeUndefined();
  });
});

describe('isLoopbackListen', () => {
  it('tells loopback listen addresses from others', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(isLoopbackListen(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'mock.internal']) expect(isLoopbackListen(host)).toBe(false);
  });
});
