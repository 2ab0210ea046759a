import {
  authenticate,
  authenticateAndRead,
  type KeyAndCustomerLookup,
  type KeyLookup,
} from '../auth/authenticate.js';
import type { HeaderReader } from '../auth/read-api-key.js';
import { canonicalCustomerId } from '../validation/validate.js';
import type { SellerContext } from '../types.js';
import type { Operation, PreRead } from './operations.js';

/** How a host looks keys up: always by hash; optionally together with the customer a request reads. */
export interface KeyLookups {
  lookupKey: KeyLookup;
  /** A store's one-step key check and customer read (see {@link KeyAndCustomerLookup}); without it, two steps. */
  lookupKeyAndCustomer?: KeyAndCustomerLookup | undefined;
}

/** Who a request acts for, and the customer read in the same step when there was one (for `runOperation`). */
export interface Authentication {
  seller: SellerContext;
  preRead?: PreRead;
}

/**
 * Authenticates a request routed to `operation`. When the operation reads one customer by id (getCustomer), the
 * id is well formed and the host has a {@link KeyAndCustomerLookup}, the key check and the read are one step (one
 * round trip on PostgreSQL); the answer is the same as two steps: 401s first, then the service's 404 or 200.
 *
 * @example
 * const { seller, preRead } = await authenticateOperation(operation, params, header, { lookupKey }, sha256Hex);
 */
export async function authenticateOperation(
  operation: Pick<Operation, 'id'> | undefined,
  params: Readonly<Record<string, string>>,
  header: HeaderReader,
  lookups: KeyLookups,
  hash?: (key: string) => string | Promise<string>,
): Promise<Authentication> {
  const id = operation?.id === 'getCustomer' && lookups.lookupKeyAndCustomer ? canonicalCustomerId(params.id ?? '') : undefined;
  if (id === undefined) return { seller: await authenticate(header, lookups.lookupKey, hash) };
  const { seller, customer } = await authenticateAndRead(header, id, lookups.lookupKeyAndCustomer!, hash);
  return { seller, preRead: { id, customer } };
}
