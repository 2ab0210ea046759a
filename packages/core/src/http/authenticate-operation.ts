import {
  authenticate,
  authenticateAndList,
  authenticateAndRead,
  type KeyAndCustomerLookup,
  type KeyAndPageLookup,
  type KeyLookup,
} from '../auth/authenticate.js';
import type { HeaderReader } from '../auth/read-api-key.js';
import type { PreReadPage } from '../customers/customer-service.js';
import { type ListPlan, planList } from '../customers/list-plan.js';
import { canonicalCustomerId } from '../validation/validate.js';
import type { SellerContext } from '../types.js';
import type { Operation, PreRead } from './operations.js';

/** How a host looks keys up: always by hash; optionally together with the customer a request reads. */
export interface KeyLookups {
  lookupKey: KeyLookup;
  /** A store's one-step key check and customer read (see {@link KeyAndCustomerLookup}); without it, two steps. */
  lookupKeyAndCustomer?: KeyAndCustomerLookup | undefined;
  /** A store's one-step key check and list page read (see {@link KeyAndPageLookup}); without it, two steps. */
  lookupKeyAndPage?: KeyAndPageLookup | undefined;
}

/** Who a request acts for, and the customer read in the same step when there was one (for `runOperation`). */
export interface Authentication {
  seller: SellerContext;
  preRead?: PreRead;
  /** The list page read in the same step (listCustomers with a valid query), for `runOperation`. */
  preReadPage?: PreReadPage;
}

/**
 * Authenticates a request routed to `operation`. When the operation reads one customer by id (getCustomer), the
 * id is well formed and the host has a {@link KeyAndCustomerLookup}, the key check and the read are one step (one
 * round trip on PostgreSQL); the answer is the same as two steps: 401s first, then the service's 404 or 200.
 * Likewise for listCustomers with a `query` (raw, without `?`) that is valid and a {@link KeyAndPageLookup}: the
 * key and the page in one step. An invalid query takes two steps, so its 401 still comes before its 400; the
 * cursor's seller and filter check stays the service's, after the seller is known.
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
  query?: string,
): Promise<Authentication> {
  if (operation?.id === 'listCustomers' && lookups.lookupKeyAndPage && query !== undefined) {
    const plan = validPlan(query);
    if (plan !== undefined) {
      const { seller, rows } = await authenticateAndList(header, plan.page, lookups.lookupKeyAndPage, hash);
      return { seller, preReadPage: { query, plan, rows } };
    }
  }
  const id = operation?.id === 'getCustomer' && lookups.lookupKeyAndCustomer ? canonicalCustomerId(params.id ?? '') : undefined;
  if (id === undefined) return { seller: await authenticate(header, lookups.lookupKey, hash) };
  const { seller, customer } = await authenticateAndRead(header, id, lookups.lookupKeyAndCustomer!, hash);
  return { seller, preRead: { id, customer } };
}

/** The list's plan, or undefined for a query the service answers with a 400 (after authentication). */
function validPlan(query: string): ListPlan | undefined {
  try {
    return planList(query);
  } catch {
    return undefined;
  }
}
