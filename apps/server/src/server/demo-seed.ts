import { sql } from 'kysely';
import { createApiKey } from '../db/api-keys.js';
import type { DatabaseHandle } from '../db/connect.js';
import { countSellers, createSeller } from '../db/sellers.js';
import { writeTransaction } from '../db/write-transaction.js';
import { SERVER_ACTOR } from '../audit/audit-actions.js';
import { writeAuditRow } from '../audit/audit-log.js';
import { DEFAULT_PLAN } from '../plans.js';

export interface DemoAccount {
  sellerId: string;
  keyId: string;
  key: string;
}

/**
 * On an empty database, creates a demo seller with one API key and returns the key (to be shown once);
 * undefined when any seller exists. Several processes starting at once create one demo seller: the check and
 * the insert share a transaction holding the database write lock (SQLite) or an advisory lock (PostgreSQL).
 */
export async function seedDemoAccount(handle: DatabaseHandle): Promise<DemoAccount | undefined> {
  return writeTransaction(handle, async (trx) => {
    if (handle.dialect === 'postgres') await sql`select pg_advisory_xact_lock(727272)`.execute(trx);
    const inTransaction: DatabaseHandle = { ...handle, db: trx };
    if ((await countSellers(inTransaction)) > 0) return undefined;
    const seller = await createSeller(inTransaction, { name: 'Demo seller', plan: DEFAULT_PLAN });
    const key = await createApiKey(inTransaction, { sellerId: seller.id, name: 'Demo key' });
    await writeAuditRow(trx, SERVER_ACTOR, { sellerId: seller.id, action: 'seller.created', targetId: seller.id }, new Date());
    await writeAuditRow(trx, SERVER_ACTOR, { sellerId: seller.id, action: 'api_key.created', targetId: key.id }, new Date());
    return { sellerId: seller.id, keyId: key.id, key: key.key };
  });
}

/** The first-start message: the key once, a request to paste and a dashboard sign-in link. */
export function demoAccountMessage(demo: DemoAccount, baseUrl: string, dashboardLink?: string): string {
  return [
    '',
    'Empty database: created a demo seller and an API key. The key is shown only now; store it safely.',
    '',
    `  seller id: ${demo.sellerId}`,
    `  API key:   ${demo.key}`,
    '',
    'Create a customer:',
    '',
    `  curl -i -X POST ${baseUrl}/api/customers \\`,
    `    -H 'X-API-Key: ${demo.key}' \\`,
    "    -H 'Content-Type: application/json' \\",
    `    -d '{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}'`,
    '',
    `API reference: ${baseUrl}/docs`,
    ...(dashboardLink
      ? [
          '',
          'Manage API keys in the dashboard (one-time sign-in link, valid 15 minutes;',
          `a new one: pnpm cli sellers login-link --seller ${demo.sellerId}):`,
          '',
          `  ${dashboardLink}`,
        ]
      : []),
    '',
  ].join('\n');
}
