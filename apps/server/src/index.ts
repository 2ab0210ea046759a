// The reference server as a library: for contract tests and embedding. The operator entry point is cli.ts.

// HTTP
export { buildApp, type AppOptions } from './build-app.js';
export { startServer, type RunningServer } from './server/start-server.js';
export { resolveConfig, type ServerConfig } from './config.js';
export { SERVER_NODE_FLAGS } from './server/node-flags.js';

// Storage
export { connectDatabase, DEFAULT_DATABASE_URL, type DatabaseHandle, type DialectName } from './db/connect.js';
export { migrateToLatest } from './db/migrations.js';
export { SqlCustomerStore } from './db/sql-customer-store.js';
export { customerToRow } from './db/rows.js';
// PostgreSQL timestamps read as the API's strings (the benchmarks' PostgreSQL floor reads them the same way)
export { ISO_TIMESTAMP_TYPES, POSTGRES_SESSION_OPTIONS } from './db/postgres-timestamps.js';
export { countCustomers, createSeller, findSeller, type Seller } from './db/sellers.js';
export {
  createApiKey,
  deleteApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeyInfo,
  type CreatedApiKey,
} from './db/api-keys.js';

// Webhook delivery (the benchmarks' delivery rows run the worker on their own database)
export { DeliveryWorker, type DeliveryWorkerOptions } from './webhooks/delivery-worker.js';
export { createEndpoint } from './webhooks/endpoints.js';
export { createSecretBox, type SecretBox } from './webhooks/secret-box.js';

// Plans
export { DEFAULT_PLAN, PLANS, resolveCustomerLimit, type PlanName } from './plans.js';

// Rate limits: the shared limiter's one Redis call (the benchmarks' Redis floor makes the same call per request)
export { takeLease, type Lease } from './rate-limit/redis-lease.js';

// CLI
export { runCli } from './cli/run-cli.js';
