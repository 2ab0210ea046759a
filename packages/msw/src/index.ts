// Handlers
export {
  createCustomersMock,
  type CustomersMock,
  type CustomersMockOptions,
} from './create-customers-mock.js';

// Sellers and seed customers
export { DEFAULT_CUSTOMER_LIMIT, type MockSeller, type SellerRef, type SellerSeed } from './sellers.js';
export { SeedError, type CustomerSeed } from './seed.js';

// Forcing responses
export type { ForcedResponse, ForcedStatus } from './forced-responses.js';
export type { OperationId } from './operation.js';
