import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/errors';
import { validateApiKey } from './api-key';

const good = `sk_live_${'x9Y'.repeat(16)}`;

describe('validateApiKey', () => {
  it('accepts each of the four kinds followed by 48 letters and digits', () => {
    for (const prefix of ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_']) {
      const key = `${prefix}${'x9Y'.repeat(16)}`;
      expect(validateApiKey(key)).toBe(key);
    }
  });

  it.each([
    ['missing', undefined, /Missing API key.*CUSTOMERS_API_KEY.*Settings, API Keys/],
    ['empty', '', /Missing API key/],
    ['wrong prefix', `pk_live_${'a'.repeat(48)}`, /does not start with sk_live_, sk_test_, rk_live_ or rk_test_, it is 56 characters long/],
    ['too short test', `rk_test_${'a'.repeat(47)}`, /starts with rk_test_, it is 55 characters long/],
    ['too short', `sk_live_${'a'.repeat(47)}`, /starts with sk_live_, it is 55 characters long/],
    ['too long', `${good}Z`, /it is 57 characters long/],
    ['a symbol', `sk_live_${'a'.repeat(47)}-`, /expected sk_live_, sk_test_, rk_live_ or rk_test_ and 48 letters or digits/],
    ['a trailing newline', `${good}\n`, /contains whitespace/],
  ])('refuses a %s key with a clear message that never echoes it', (_label, key, message) => {
    let thrown: unknown;
    try {
      validateApiKey(key);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).toMatch(message);
    if (key) expect((thrown as Error).message).not.toContain(key.slice(8, 20) || key);
  });
});

describe('the facts in a malformed-key message', () => {
  it('are only those that hold: no whitespace remark for a key without whitespace', () => {
    expect(() => validateApiKey(`sk_live_${'a'.repeat(47)}`)).toThrow(
      'Malformed API key: expected sk_live_, sk_test_, rk_live_ or rk_test_ and 48 letters or digits, but it starts with sk_live_, it is 55 characters long (expected 56). Create one in the dashboard: Settings, API Keys.',
    );
  });
});
