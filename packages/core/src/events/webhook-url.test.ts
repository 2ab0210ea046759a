import { describe, expect, it } from 'vitest';
import { isPublicAddress, normalizeWebhookUrl, webhookUrlProblem } from './webhook-url.js';

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

describe('webhook URLs: control and bidi characters, and the normalized form', () => {
  const CONTROLS = 'url must not contain control characters or bidirectional formatting characters';
  const refused = [
    ...Array.from({ length: 0x20 }, (_, code) => code),
    0x7f,
    ...Array.from({ length: 0x20 }, (_, code) => 0x80 + code),
    0x061c,
    0x200e,
    0x200f,
    0x202a,
    0x202b,
    0x202c,
    0x202d,
    0x202e,
    0x2066,
    0x2067,
    0x2068,
    0x2069,
  ];
  it.each(refused.map((code) => [`U+${code.toString(16).toUpperCase().padStart(4, '0')}`, String.fromCharCode(code)]))(
    'refuses %s anywhere in the URL, even where new URL would drop or encode it',
    (_name, character) => {
      for (const url of [`https://example.com/a${character}b`, `${character}https://example.com/`, `https://example.com/${character}`, `https://example.com/?q=${character}`]) {
        expect(webhookUrlProblem(url), JSON.stringify(url)).toBe(CONTROLS);
        expect(webhookUrlProblem(url, { allowPrivate: true }), JSON.stringify(url)).toBe(CONTROLS);
      }
    },
  );
  it('accepts the neighbours of those characters (space, U+00A0, U+061B, U+200D, U+2029, U+2065, U+206A), percent-encoded controls too', () => {
    for (const character of ['\u00a0', '\u061b', '\u061d', '\u200d', '\u2010', '\u2029', '\u202f', '\u2065', '\u206a', 'ü']) {
      expect(webhookUrlProblem(`https://example.com/a${character}b`), JSON.stringify(character)).toBeUndefined();
    }
    expect(webhookUrlProblem('https://example.com/a%00b%1B')).toBeUndefined();
    expect(webhookUrlProblem('https://example.com/a b')).toBeUndefined();
  });
  it('normalizes as new URL(u).href does: scheme and host in lower case, default port and dot segments gone, the rest encoded', () => {
    expect(normalizeWebhookUrl('HTTPS://CRM.Example.COM:443/a/../hooks?x=ü#frag')).toBe('https://crm.example.com/hooks?x=%C3%BC#frag');
    expect(normalizeWebhookUrl('http://[::FFFF:7F00:1]:80')).toBe('http://[::ffff:7f00:1]/');
    expect(normalizeWebhookUrl('https://bücher.example/a b')).toBe('https://xn--bcher-kva.example/a%20b');
  });
  it('measures the 2048 characters on the normalized URL too', () => {
    const base = 'https://example.com/';
    expect(webhookUrlProblem(`${base}${'ü'.repeat(700)}`)).toBe('url must be at most 2048 characters');
  });
});

