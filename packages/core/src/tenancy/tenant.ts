import type { Customer, SellerContext } from '../types.js';

/**
 * A key's mode: `live` acts on the seller's real data, `test` on its test data. The two never meet: test mode is
 * a tenancy boundary like a seller, so every store method takes a {@link Tenant}, never a bare seller id.
 */
export type Mode = 'live' | 'test';

/** Whose data a store call may see: one seller's, in one mode. */
export interface Tenant {
  readonly sellerId: string;
  readonly mode: Mode;
}

/**
 * The tenant an authenticated request acts for: its seller, in its key's mode (live when the context names none).
 *
 * @example
 * tenantOf({ sellerId, customerLimit: 100, mode: 'test' }); // { sellerId, mode: 'test' }
 */
export function tenantOf(seller: Pick<SellerContext, 'sellerId' | 'mode'>): Tenant {
  return { sellerId: seller.sellerId, mode: seller.mode ?? 'live' };
}

/** The tenant a stored customer belongs to (its seller, and `livemode`). */
export function tenantOfCustomer(customer: Pick<Customer, 'seller_id' | 'livemode'>): Tenant {
  return { sellerId: customer.seller_id, mode: customer.livemode === false ? 'test' : 'live' };
}

/**
 * One string per tenant, for map keys and cursor scopes: the seller id itself in live mode (so live cursors and
 * keys made before test mode stay valid), the seller id and `:test` in test mode.
 *
 * @example
 * tenantKey({ sellerId: 'a1…', mode: 'test' }); // "a1…:test"
 */
export function tenantKey(tenant: Tenant): string {
  return tenant.mode === 'live' ? tenant.sellerId : `${tenant.sellerId}:test`;
}

/** `livemode` as the API writes it. */
export function isLive(mode: Mode): boolean {
  return mode === 'live';
}

/** Whether `value` names a mode (`live` or `test`). */
export function isMode(value: unknown): value is Mode {
  return value === 'live' || value === 'test';
}
