import type { DatabaseHandle } from '../db/connect.js';
import { countCustomers, findSeller } from '../db/sellers.js';
import { resolveCustomerLimit } from '../plans.js';

/** The signed-in seller's account as the dashboard header shows it. */
export interface DashboardAccount {
  seller: { id: string; name: string };
  plan: { name: string; customer_limit: number };
  customers_used: number;
  session_expires_at: string;
}

export async function loadAccount(
  handle: DatabaseHandle,
  sellerId: string,
  sessionExpiresAt: string,
): Promise<DashboardAccount | undefined> {
  const seller = await findSeller(handle, sellerId);
  if (!seller) return undefined;
  return {
    seller: { id: seller.id, name: seller.name },
    plan: { name: seller.plan, customer_limit: resolveCustomerLimit(seller.plan, seller.customer_limit) },
    customers_used: await countCustomers(handle, seller.id),
    session_expires_at: sessionExpiresAt,
  };
}
