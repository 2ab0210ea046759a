import type { DatabaseHandle } from '../db/connect.js';
import { API_VERSIONS, LATEST_API_VERSION, utcDate, type ApiVersion } from '@customers-api/core';
import { countCustomers, findSeller } from '../db/sellers.js';
import { resolveCustomerLimit } from '../plans.js';

/** The signed-in seller's account as the dashboard header shows it. */
export interface DashboardAccount {
  seller: { id: string; name: string };
  plan: { name: string; customer_limit: number };
  customers_used: number;
  session_expires_at: string;
  /** The API version the seller is pinned to. */
  api_version: string;
  /** Newer versions, not past their sunset, the seller may move to (newest first). */
  api_versions_available: string[];
}

/**
 * The versions a seller pinned to `current` may move to: newer ones not past their sunset at `now`, newest first.
 *
 * @example
 * newerApiVersions('2026-11-26', new Date()); // [] while it is the latest
 */
export function newerApiVersions(current: string, now: Date, versions: readonly ApiVersion[] = API_VERSIONS): string[] {
  const today = utcDate(now);
  return versions
    .filter((entry) => entry.version > current && (entry.sunset === undefined || today < entry.sunset))
    .map((entry) => entry.version);
}

export async function loadAccount(
  handle: DatabaseHandle,
  sellerId: string,
  sessionExpiresAt: string,
  now: Date = new Date(),
  versions: readonly ApiVersion[] = API_VERSIONS,
): Promise<DashboardAccount | undefined> {
  const seller = await findSeller(handle, sellerId);
  if (!seller) return undefined;
  const apiVersion = seller.api_version ?? LATEST_API_VERSION;
  return {
    seller: { id: seller.id, name: seller.name },
    plan: { name: seller.plan, customer_limit: resolveCustomerLimit(seller.plan, seller.customer_limit) },
    customers_used: await countCustomers(handle, seller.id),
    session_expires_at: sessionExpiresAt,
    api_version: apiVersion,
    api_versions_available: newerApiVersions(apiVersion, now, versions),
  };
}
