import { describe, expect, it } from 'vitest';
import { redactArgs, withoutCredentials } from './redact-args.js';

describe('withoutCredentials', () => {
  it('removes the user and password of a URL, and leaves anything else as it is', () => {
    expect(withoutCredentials('postgres://app:s3cret@db:5432/customers')).toBe('postgres://db:5432/customers');
    expect(withoutCredentials('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
    expect(withoutCredentials('postgres://app@db/customers')).toBe('postgres://db/customers');
    expect(withoutCredentials('postgres://a:b@[bad')).toBe('postgres://[bad');
    for (const text of ['sqlite:/tmp/a.db', 'postgres://db/customers', '--rate-limit', 'user@example.com']) expect(withoutCredentials(text)).toBe(text);
  });
});

describe('redactArgs', () => {
  it('keeps flags, strips URL credentials and redacts the value of a flag named like a secret', () => {
    expect(
      redactArgs(['serve', '--database', 'postgres://u:s3cret@db/c', '--redis=redis://:s3cret@r:6379', '--control-token', 's3cret', '--api-key=s3cret', '--port', '0']),
    ).toEqual(['serve', '--database', 'postgres://db/c', '--redis=redis://r:6379', '--control-token', '[redacted]', '--api-key=[redacted]', '--port', '0']);
  });
});
