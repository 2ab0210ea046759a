import { ConfigurationError } from '../core/errors';

/** The four key kinds: secret (`sk_`) or restricted (`rk_`), live or test, then 48 letters and digits. */
const KEY_PREFIX = /^[sr]k_(live|test)_/;
const KEY_FORMAT = /^[sr]k_(live|test)_[A-Za-z0-9]{48}$/;
const KINDS = 'sk_live_, sk_test_, rk_live_ or rk_test_';

const WHERE = 'Create one in the dashboard: Settings, API Keys.';

/** Returns the key if it has the documented format; otherwise throws without ever echoing the key. */
export function validateApiKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') {
    throw new ConfigurationError(
      `Missing API key: pass { apiKey } to new CustomersClient() or set the CUSTOMERS_API_KEY environment variable. ${WHERE}`,
    );
  }
  if (!KEY_FORMAT.test(key)) {
    const facts = [
      KEY_PREFIX.test(key) ? `it starts with ${key.slice(0, 8)}` : `it does not start with ${KINDS}`,
      `it is ${key.length} characters long (expected 56)`,
    ];
    if (/\s/.test(key)) facts.push('it contains whitespace');
    throw new ConfigurationError(
      `Malformed API key: expected ${KINDS} and 48 letters or digits, but ${facts.join(', ')}. ${WHERE}`,
    );
  }
  return key;
}
