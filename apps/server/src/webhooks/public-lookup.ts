import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isPublicAddress } from '@customers-api/core';

/** A lookup refused for having only non-public answers; `resolvedAddresses` are for the operator's log only. */
export interface PrivateAddressError extends NodeJS.ErrnoException {
  code: 'EPRIVATEADDRESS';
  resolvedAddresses: string[];
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for outgoing webhook connections that only ever yields public addresses (core's
 * `isPublicAddress`): a public name resolving to a loopback or private address is refused with `EPRIVATEADDRESS`
 * before any connection is made (a {@link PrivateAddressError}: the addresses are on it, not in its message). Node's sockets call it with `all: true` when they try several addresses.
 *
 * @example
 * http.request(url, { lookup: publicOnlyLookup });
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
    if (allowed.length === 0) {
      // The message reaches the seller (the delivery's error): it does not show them the internal DNS answer.
      const refused = new Error(`${hostname} resolves only to non-public addresses`) as PrivateAddressError;
      refused.code = 'EPRIVATEADDRESS';
      refused.resolvedAddresses = addresses.map((entry) => entry.address);
      return callback(refused, []);
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}
