import { describe, expect, it } from 'vitest';
import { isPublicAddress, webhookUrlProblem } from './webhook-url.js';

describe('isPublicAddress', () => {
  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '[2a00:1450:4001:82b::200e]',
    '::ffff:93.184.216.34',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.2.10',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    '::127.0.0.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['', 'localhost', 'example.com', '256.1.1.1', '1.2.3', '01.2.3.4', '1:2:3', '1::2::3', 'g::1', '1:2:3:4:5:6:7:8:9'])(
    '%j is not an address, so not public',
    (text) => {
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});

describe('webhookUrlProblem', () => {
  it('accepts public http and https URLs', () => {
    expect(webhookUrlProblem('https://hooks.example.com/customers')).toBeUndefined();
    expect(webhookUrlProblem('http://93.184.216.34:8080/x?y=1')).toBeUndefined();
  });

  it('names the url property for every refusal', () => {
    expect(webhookUrlProblem('not a url')).toBe('url must be an absolute http or https URL');
    expect(webhookUrlProblem('ftp://example.com/')).toBe('url must be an http or https URL');
    expect(webhookUrlProblem('javascript:alert(1)')).toBe('url must be an http or https URL');
    expect(webhookUrlProblem('https://user:pw@example.com/')).toBe('url must not contain a user name or password');
    expect(webhookUrlProblem(`https://example.com/${'a'.repeat(2048)}`)).toBe('url must be at most 2048 characters');
  });

  it('refuses loopback and private targets unless allowed', () => {
    const privateMessage = 'url must point at a public address (loopback and private networks are refused)';
    for (const url of [
      'http://localhost:3000/hook',
      'http://api.localhost/hook',
      'http://127.0.0.1/hook',
      'http://[::1]:8080/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.5/hook',
      'http://0x7f000001/hook',
      'http://2130706433/hook',
    ]) {
      expect(webhookUrlProblem(url), url).toBe(privateMessage);
      expect(webhookUrlProblem(url, { allowPrivate: true }), url).toBeUndefined();
    }
  });
});
