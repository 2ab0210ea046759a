import { describe, expect, it } from 'vitest';
import { apiError, hangingFetch, ID, KEY, scriptedFetch } from '../test/helpers/fixtures';
import { CustomersClient } from './client';
import { ConnectionError, TimeoutError, UserAbortError } from './core/errors';

// `AbortSignal.timeout(ms)` as `signal` is an overall deadline across attempts: a TimeoutError, never retried.
describe('an AbortSignal.timeout() deadline', () => {
  it('rejects a hanging call with TimeoutError, not UserAbortError, and does not retry it', async () => {
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch, maxRetries: 5 });
    const { error } = await client.customers.get(ID, { signal: AbortSignal.timeout(20) }).result();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(UserAbortError);
    expect(error?.message).toContain('deadline of its AbortSignal');
    expect((error?.cause as DOMException).name).toBe('TimeoutError');
    expect(hang.calls()).toBe(1);
  });

  it('ends the wait between retries with TimeoutError', async () => {
    const { fetch, calls } = scriptedFetch([
      apiError(503, 'Service Unavailable', 'later', { 'retry-after': '30' }),
      apiError(503, 'Service Unavailable', 'later'),
    ]);
    const client = new CustomersClient({ apiKey: KEY, fetch, maxRetries: 3 });
    await expect(client.customers.get(ID, { signal: AbortSignal.timeout(30) })).rejects.toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(1);
  });

  it('is already past when the call starts: TimeoutError, nothing sent', async () => {
    const hang = hangingFetch();
    const client = new CustomersClient({ apiKey: KEY, fetch: hang.fetch });
    const expired = AbortSignal.abort(new DOMException('deadline', 'TimeoutError'));
    await expect(client.customers.get(ID, { signal: expired })).rejects.toBeInstanceOf(TimeoutError);
    expect(hang.calls()).toBe(0);
  });
});
