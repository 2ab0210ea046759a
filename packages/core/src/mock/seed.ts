import type { CustomerService } from '../customers/customer-service.js';
import { isApiError } from '../errors/api-error.js';
import type { Customer, CustomerCreate, SellerContext } from '../types.js';
import { parseCustomerCreate } from '../validation/validate.js';
import type { SellerRef } from './sellers.js';

/**
 * Customers to create for one seller, named by `sellerId` or `apiKey` (with the default seller, any
 * well-formed key; with neither, the default seller or the only one). Each body is a create request, so
 * core's defaults and validation apply as if it had been POSTed.
 */
export interface CustomerSeed extends SellerRef {
  customers: CustomerCreate[];
}

/** A seed the API would not accept; the message says which customer and why. */
export class SeedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SeedError';
  }
}

type FindSeller = (ref: SellerRef) => SellerContext | undefined;

/**
 * Throws {@link SeedError} at once for a seed naming no known seller or holding a body core's validation
 * refuses; the rules that need the store (unique email, plan limit) are left to {@link applySeeds}.
 *
 * @example
 * checkSeeds([{ customers: [{ first_name: 'Ada' }] }], directory.find); // SeedError: ... last_name is required
 */
export function checkSeeds(seeds: readonly CustomerSeed[], find: FindSeller): void {
  seeds.forEach((seed, s) => {
    sellerOf(seed, s, find);
    seed.customers.forEach((body, c) => {
      try {
        parseCustomerCreate(body);
      } catch (error) {
        throw rejected(s, c, error);
      }
    });
  });
}

/**
 * Creates every seed customer through core's service, in order, and resolves with them; rejects with a
 * {@link SeedError} at the first one the API would refuse (400, 403 plan limit, 409 email). Customers
 * created before it stay.
 *
 * @example
 * const [ada] = await applySeeds(service, [{ customers: [{ first_name: 'Ada', last_name: 'L', email: 'a@b.de' }] }], find);
 */
export async function applySeeds(
  service: CustomerService,
  seeds: readonly CustomerSeed[],
  find: FindSeller,
): Promise<Customer[]> {
  const created: Customer[] = [];
  for (const [s, seed] of seeds.entries()) {
    const seller = sellerOf(seed, s, find);
    for (const [c, body] of seed.customers.entries()) {
      try {
        created.push((await service.create(seller, body)).customer);
      } catch (error) {
        throw rejected(s, c, error);
      }
    }
  }
  return created;
}

function sellerOf(seed: CustomerSeed, s: number, find: FindSeller): SellerContext {
  const seller = find(seed);
  if (seller) return seller;
  const named = [seed.sellerId && `sellerId ${seed.sellerId}`, seed.apiKey && 'that apiKey'].filter(Boolean);
  throw new SeedError(
    named.length > 0
      ? `seed[${s}]: no seller matches ${named.join(' and ')}; add it to \`sellers\` or with addSeller() first`
      : `seed[${s}]: name the seller with sellerId or apiKey (the mock has no default seller and not exactly one)`,
  );
}

function rejected(s: number, c: number, error: unknown): SeedError {
  const reason = isApiError(error) ? `${error.status} ${error.message}` : String(error);
  return new SeedError(`seed[${s}].customers[${c}] was rejected: ${reason}`, { cause: error });
}
