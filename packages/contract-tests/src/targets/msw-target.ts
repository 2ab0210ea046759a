import { generateApiKey } from '@customers-api/core';
import { createCustomersMock } from '@customers-api/msw';
import { setupServer } from 'msw/node';
import { checkedFetch, createConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { rememberKey } from '../support/log-capture.js';
import type { Target } from './target.js';

/**
 * The MSW handlers (core over the in-memory store) behind msw/node's setupServer, on an origin no real server
 * uses. Only the sellers added by the scenarios exist (`sellers: []`), so an unknown key is a 401 as on the server.
 */
export async function startMswTarget(log = createConformanceLog()): Promise<Target> {
  const baseUrl = 'http://customers-api.msw.test';
  const mock = createCustomersMock({ baseUrl, sellers: [] });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'bypass' });
  await mock.ready;
  return {
    name: 'msw',
    stateful: true,
    baseUrl,
    // MSW patches globalThis.fetch in listen(): look it up per call.
    fetch: checkedFetch(createResponseValidator(), log, (input, init) => globalThis.fetch(input, init)),
    log,
    async newSeller({ customerLimit } = {}) {
      const seller = await mock.addSeller(customerLimit === undefined ? {} : { customerLimit });
      return { sellerId: seller.sellerId, key: rememberKey(seller.apiKey) };
    },
    async restrictedKey(seller, scopes, mode = 'live') {
      const apiKey = generateApiKey({ kind: 'restricted', mode });
      await mock.addKey(seller.sellerId, { apiKey, scopes });
      return rememberKey(apiKey);
    },
    async testKey(seller) {
      const apiKey = generateApiKey({ kind: 'secret', mode: 'test' });
      await mock.addKey(seller.sellerId, { apiKey });
      return { sellerId: seller.sellerId, key: rememberKey(apiKey) };
    },
    revokeKey: (seller) => mock.revokeKey(seller.key),
    countCustomers: async (sellerId) => mock.store.countCustomers(sellerId),
    countTestCustomers: async (sellerId) => mock.store.countCustomers(sellerId, 'test'),
    async close() {
      server.close();
    },
  };
}
