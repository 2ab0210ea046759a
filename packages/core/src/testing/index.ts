// Test helpers for stores: `@customers-api/core/testing`. Uses vitest; not part of the runtime.
export { describeStoreContract, sampleCustomer, type StoreHarness } from './store-contract.js';
export { describeOutboxContract, type OutboxHarness } from './outbox-contract.js';
