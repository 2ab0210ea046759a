// Handlers
export {
  createCustomersMock,
  type CustomersMock,
  type CustomersMockOptions,
  type MockSeller,
  type SellerSeed,
} from './create-customers-mock.js';
