// Test helpers for stores: `@customers-api/core/testing`. Uses vitest; not part of the runtime.
export { describeStoreContract, sampleCustomer, type StoreHarness } from './store-contract.js';
export { describeOutboxContract, type OutboxHarness } from './outbox-contract.js';
export { FIXTURE_CHANGE, FIXTURE_OLD_VERSION, fixtureVersioning } from './fixture-version.js';
export { describeWebhookStoreContract, sampleEndpoint, type WebhookStoreHarness } from './webhook-store-contract.js';
export { live, testData } from './tenants.js';
