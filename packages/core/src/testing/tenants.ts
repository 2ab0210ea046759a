import type { Tenant } from '../tenancy/tenant.js';

/** The seller's live data, as a store call names it (tests and harnesses). */
export function live(sellerId: string): Tenant {
  return { sellerId, mode: 'live' };
}

/** The seller's test data, as a store call names it (tests and harnesses). */
export function testData(sellerId: string): Tenant {
  return { sellerId, mode: 'test' };
}
