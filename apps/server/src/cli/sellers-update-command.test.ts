import { describe, expect, it } from 'vitest';
import { apiVersionFrom, keyLimitFrom, waitingDeliveryLimitFrom } from './sellers-update-command.js';

const versions = [
  { version: '2027-03-01', summary: 'newer' },
  { version: '2026-11-26', summary: 'older', deprecated: '2027-03-01', sunset: '2027-09-01' },
];

describe('apiVersionFrom', () => {
  it('takes a listed version until its sunset day, and refuses it from then on, naming the versions left', () => {
    expect(apiVersionFrom('2026-11-26', () => new Date('2027-08-31T23:00:00Z'), versions)).toBe('2026-11-26');
    expect(() => apiVersionFrom('2026-11-26', () => new Date('2027-09-01T00:00:00Z'), versions)).toThrow(
      '--api-version must be one of: 2027-03-01, got "2026-11-26"',
    );
    expect(() => apiVersionFrom('latest', () => new Date('2027-01-01T00:00:00Z'), versions)).toThrow(
      '--api-version must be one of: 2027-03-01, 2026-11-26, got "latest"',
    );
  });
});

describe('keyLimitFrom', () => {
  it('takes a whole number up to 10,000 or default (null), and names the flag otherwise', () => {
    expect(keyLimitFrom('500')).toBe(500);
    expect(keyLimitFrom('default')).toBeNull();
    for (const text of ['-1', '10001', '1.5', 'many']) expect(() => keyLimitFrom(text)).toThrow(/^--key-limit must be a whole number from 0 to 10000, or "default"/);
  });
});

describe('waitingDeliveryLimitFrom', () => {
  it('takes a whole number up to 10,000,000 or "default" (null), and refuses anything else naming the flag', () => {
    expect(waitingDeliveryLimitFrom('250000')).toBe(250_000);
    expect(waitingDeliveryLimitFrom('0')).toBe(0);
    expect(waitingDeliveryLimitFrom('default')).toBeNull();
    for (const text of ['-1', '10000001', '1.5', 'many']) {
      expect(() => waitingDeliveryLimitFrom(text)).toThrow(/^--waiting-delivery-limit must be a whole number from 0 to 10000000, or "default"/);
    }
  });
});
