import type { AuditRecord } from '../audit/audit-log.js';
import type { DatabaseHandle } from '../db/connect.js';
import { canonicalUuid } from '../db/uuid.js';

/** The kinds of object the Activity page names, by the prefix of the action. */
type Kind = 'api_key' | 'webhook_endpoint' | 'customer';
const KINDS: readonly Kind[] = ['api_key', 'webhook_endpoint', 'customer'];

function kindOf(action: string): Kind | undefined {
  const prefix = action.split('.', 1)[0];
  return KINDS.find((kind) => kind === prefix);
}

/**
 * Display names for a page of the seller's audit rows, keyed by target id: a key's name, an endpoint's URL, a
 * customer's name, as they are now (an object since deleted has none). At most three queries, each bounded by the
 * page's ids and scoped by the seller, so another seller's object never lends its name.
 */
export async function activityNames(handle: DatabaseHandle, sellerId: string, rows: readonly AuditRecord[]): Promise<Map<string, string>> {
  const ids: Record<Kind, Set<string>> = { api_key: new Set(), webhook_endpoint: new Set(), customer: new Set() };
  for (const row of rows) {
    const kind = kindOf(row.action);
    const id = row.target_id === null ? undefined : canonicalUuid(row.target_id);
    if (kind && id) ids[kind].add(id);
  }
  const names = new Map<string, string>();
  const { db } = handle;
  if (ids.api_key.size > 0) {
    const keys = await db.selectFrom('api_keys').select(['id', 'name']).where('seller_id', '=', sellerId).where('id', 'in', [...ids.api_key]).execute();
    for (const key of keys) names.set(String(key.id), key.name);
  }
  if (ids.webhook_endpoint.size > 0) {
    const endpoints = await db
      .selectFrom('webhook_endpoints')
      .select(['id', 'url'])
      .where('seller_id', '=', sellerId)
      .where('id', 'in', [...ids.webhook_endpoint])
      .execute();
    for (const endpoint of endpoints) names.set(String(endpoint.id), endpoint.url);
  }
  if (ids.customer.size > 0) {
    const customers = await db
      .selectFrom('customers')
      .select(['id', 'first_name', 'last_name'])
      .where('seller_id', '=', sellerId)
      .where('id', 'in', [...ids.customer])
      .execute();
    for (const customer of customers) names.set(String(customer.id), `${customer.first_name} ${customer.last_name}`.trim());
  }
  return names;
}
