// Test helpers for other packages of this repository (the contract tests): a real PostgreSQL for a vitest run,
// fresh databases of either kind, and a listening app on a fresh database. Not part of the server's runtime.

// The PostgreSQL global setup has its own entry, `@customers-api/server/testing/postgres-global-setup`: vitest's
// globalSetup must not load this module, which imports vitest. Its `inject('postgresUrl')` type comes from there:
import type {} from './test/postgres-global-setup.js';

export { DIALECTS, createTestDatabase, type TestDatabase } from './test/test-database.js';
export {
  startTestServer,
  newCustomer,
  type TestServer,
  type TestSeller,
  type TestResponse,
  type CallOptions,
} from './test/test-server.js';
export { freePort } from './test/free-port.js';
