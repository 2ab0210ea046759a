// Handlers
export {
  createCustomersMock,
  type CustomersMock,
  type CustomersMockOptions,
} from './create-customers-mock.js';

// Sellers and seed customers (the mock engine lives in @customers-api/core; re-exported for msw's users)
export {
  DEFAULT_CUSTOMER_LIMIT,
  SeedError,
  type CustomerSeed,
  type KeySeed,
  type KeySeedLifecycle,
  type MockSeller,
  type SellerRef,
  type SellerSeed,
} from '@customers-api/core';

// Forcing responses
export type { ForcedResponse, ForcedStatus, OperationId } from '@customers-api/core';
