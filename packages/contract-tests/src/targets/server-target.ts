import {
  buildApp,
  countCustomers,
  createApiKey,
  createSeller,
  revokeApiKey,
  type DatabaseHandle,
  type DialectName,
} from '@customers-api/server';
import { createTestDatabase, type TestDatabase } from '@customers-api/server/testing';
import pino from 'pino';
import { checkedFetch, createConformanceLog } from '../conformance/checked-fetch.js';
import { createResponseValidator } from '../conformance/response-validator.js';
import { logSink, rememberKey } from '../support/log-capture.js';
import type { Target, TargetSeller } from './target.js';

export interface ServerTarget extends Target {
  dialect: DialectName;
  app: Awaited<ReturnType<typeof buildApp>>;
  handle: DatabaseHandle;
  database: TestDatabase;
  /** Moves the server's wall clock (key expiry) forward. */
  advanceClock(ms: number): void;
  /** A key for an existing seller, optionally expiring at an ISO time (server clock). */
  newKey(sellerId: string, expiresAt?: string): Promise<TargetSeller>;
}

/**
 * The reference server (buildApp) on a fresh SQLite file or PostgreSQL database, listening on 127.0.0.1 and a
 * free port, logging every line (debug level) into the capture that the key-leak check scans.
 */
export async function startServerTarget(
  dialect: DialectName,
  log = createConformanceLog(),
  appOptions: Pick<Parameters<typeof buildApp>[0], 'rateLimit' | 'webhooks'> = {},
): Promise<ServerTarget> {
  const database = await createTestDatabase(dialect);
  const handle = await database.open();
  let offsetMs = 0;
  const logger = pino({ level: 'debug' }, logSink());
  const app = await buildApp({ database: handle, logger, now: () => new Date(Date.now() + offsetMs), ...appOptions });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('server is not listening');
  const validator = createResponseValidator();

  const newKey = async (sellerId: string, expiresAt?: string): Promise<TargetSeller> => {
    const key = await createApiKey(handle, { sellerId, name: 'contract', expiresAt: expiresAt ?? null }, new Date(Date.now() + offsetMs));
    return { sellerId, key: rememberKey(key.key), keyId: key.id };
  };

  return {
    name: `server (${dialect})`,
    dialect,
    stateful: true,
    baseUrl: `http://127.0.0.1:${address.port}`,
    fetch: checkedFetch(validator, log),
    log,
    app,
    handle,
    database,
    advanceClock: (ms) => {
      offsetMs += ms;
    },
    newKey,
    async restrictedKey(seller, scopes, mode = 'live') {
      const key = await createApiKey(handle, { sellerId: seller.sellerId, name: 'restricted', mode, scopes }, new Date(Date.now() + offsetMs));
      return rememberKey(key.key);
    },
    async testKey(seller) {
      const key = await createApiKey(handle, { sellerId: seller.sellerId, name: 'contract test mode', mode: 'test' }, new Date(Date.now() + offsetMs));
      return { sellerId: seller.sellerId, key: rememberKey(key.key), keyId: key.id };
    },
    async newSeller({ customerLimit } = {}) {
      const seller = await createSeller(handle, { name: 'Contract seller', plan: 'starter', customerLimit: customerLimit ?? null });
      return newKey(seller.id);
    },
    async revokeKey(seller) {
      if (!seller.keyId || !(await revokeApiKey(handle, seller.keyId))) throw new Error('unknown key');
    },
    countCustomers: (sellerId) => countCustomers(handle, sellerId),
    // The table's count covers both modes; a seller made in test mode has only test customers.
    countTestCustomers: (sellerId) => countCustomers(handle, sellerId),
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
