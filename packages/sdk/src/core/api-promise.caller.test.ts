import { describe, expect, it } from 'vitest';
import { ID, json, KEY, scriptedFetch } from '../../test/helpers/fixtures';
import { CustomersClient } from '../client';
import { NotFoundError } from './errors';

const notFound = () => json({ error: 'Not Found', message: 'Customer not found' }, 404);

/** Lets every pending macrotask and microtask run: where Node reports a rejection nobody handled. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('a call awaited later', () => {
  it('fails first without an unhandled rejection, and rejects when awaited', async () => {
    const client = new CustomersClient({ apiKey: KEY, fetch: scriptedFetch([notFound()]).fetch, maxRetries: 0 });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const pending = client.customers.get(ID);
      await turns(5); // the 404 has arrived and been turned into an error by now
      expect(unhandled).toEqual([]);
      await expect(pending).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("carries the caller's frames in its stack, not only the SDK's", async () => {
    const client = new CustomersClient({ apiKey: KEY, fetch: scriptedFetch([notFound()]).fetch, maxRetries: 0 });
    async function lookUpTheCustomer() {
      return client.customers.get(ID);
    }
    const error = (await lookUpTheCustomer().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.stack).toContain('... called from:');
    expect(error.stack).toContain('lookUpTheCustomer');
    expect(error.stack).toContain('api-promise.caller.test');
  });
});
