import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { publicOnlyLookup, type PrivateAddressError } from './public-lookup.js';

const lookup = (hostname: string) =>
  new Promise<{ error: PrivateAddressError | null; addresses: string | LookupAddress[] }>((resolve) => {
    publicOnlyLookup(hostname, { all: true }, (error, addresses) => resolve({ error: error as PrivateAddressError | null, addresses }));
  });

describe('publicOnlyLookup', () => {
  it("refuses a name that resolves only to non-public addresses, telling the seller no internal DNS answer", async () => {
    const { error, addresses } = await lookup('localhost');
    expect(addresses).toEqual([]);
    expect(error?.code).toBe('EPRIVATEADDRESS');
    expect(error?.message).toBe('localhost resolves only to non-public addresses');
    expect(error?.message).not.toMatch(/127\.0\.0\.1|::1/);
    // The addresses stay on the error, for the operator's log line.
    expect(error?.resolvedAddresses).toEqual(expect.arrayContaining([expect.stringMatching(/^(127\.0\.0\.1|::1)$/)]));
  });
});
