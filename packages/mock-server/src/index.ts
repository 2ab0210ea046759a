// The server
export { createMockServer, type MockServer, type MockServerOptions } from './mock-server.js';

// Webhook deliveries of the change events
export type {
  Delivery,
  DeliveryAttempt,
  Schedule,
  WebhookDispatcher,
  WebhookDispatcherOptions,
  WebhookEndpoint,
} from './webhook-dispatcher.js';
export type { WebhookEndpointSeed } from './webhook-entry.js';

// Seed files
export { parseSeed, readSeedFile, SeedFileError, type Seed } from './seed-file.js';

// CORS, Prefer and the control API
export type { CorsOrigins } from './cors.js';
export { CONTROL_PREFIX } from './control-api.js';
