import type { TestDataStore, TestDataWipe } from '@customers-api/core';
import { audited } from '../audit/audit-log.js';
import type { AuditContext } from '../audit/audit-actions.js';
import type { DatabaseHandle } from './connect.js';

/**
 * Core's TestDataStore over SQL: the one-call wipe of a seller's test data, in one transaction with its audit row
 * (marked test). Endpoints go first (their deliveries and idempotency keys with them, by cascade), so deleting the
 * customers records no change for anyone; then the test events (their deliveries by cascade), the customers (the
 * count triggers bring the test count to zero) and the test idempotency keys. Live rows are never read or written.
 */
export class SqlTestDataStore implements TestDataStore {
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly audit: AuditContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  wipeTestData(sellerId: string): Promise<TestDataWipe> {
    return audited(
      this.handle,
      this.audit,
      async ({ db }) => {
        const deleted = async (table: 'webhook_endpoints' | 'customer_changes' | 'customers' | 'idempotency_keys') =>
          Number((await db.deleteFrom(table).where('seller_id', '=', sellerId).where('mode', '=', 'test').executeTakeFirst()).numDeletedRows);
        const webhookEndpoints = await deleted('webhook_endpoints');
        const events = await deleted('customer_changes');
        const customers = await deleted('customers');
        await deleted('idempotency_keys');
        return { customers, webhook_endpoints: webhookEndpoints, events };
      },
      () => ({ sellerId, mode: 'test', action: 'test_data.deleted', targetId: null }),
      this.now(),
    );
  }
}
