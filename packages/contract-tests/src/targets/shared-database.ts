import { countCustomers, createApiKey, createSeller, type DatabaseHandle } from '@customers-api/server';
import { checkedFetch, createConformanceLog, type ConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { rememberKey } from '../support/log-capture.js';
import type { Target } from './target.js';

/**
 * A Target for one server URL whose sellers, keys and counts go straight to the database it serves (another
 * process's, or a sibling app's): several such targets on one database behave as one service.
 */
export function databaseBackedTarget(name: string, baseUrl: string, handle: DatabaseHandle, log: ConformanceLog = createConformanceLog()): Target {
  return {
    name,
    stateful: true,
    baseUrl,
    fetch: checkedFetch(createResponseValidator(), log),
    log,
    async newSeller({ customerLimit } = {}) {
      const seller = await createSeller(handle, { name: 'Contract seller', plan: 'starter', customerLimit: customerLimit ?? null });
      const key = await createApiKey(handle, { sellerId: seller.id, name: 'contract' });
      return { sellerId: seller.id, key: rememberKey(key.key), keyId: key.id };
    },
    async revokeKey() {
      throw new Error('not needed here');
    },
    countCustomers: (sellerId) => countCustomers(handle, sellerId),
    close: async () => {},
  };
}
