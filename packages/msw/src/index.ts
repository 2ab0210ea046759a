// Handlers
export {
  createCustomersMock,
  type CustomersMock,
  type CustomersMockWithDefaultSeller,
  type CustomersMockOptions,
} from './create-customers-mock.js';

// The request journal and the clock: mock.requests(), mock.clock
export type { CustomersMockClock, RequestEntry, RequestFilter } from './request-entry.js';
export type { JournalEntry } from '@customers-api/core';

// Change events: mock.onEvent, mock.nextEvent, mock.events (typed from openapi.yaml's webhooks)
export { DEFAULT_EVENT_TIMEOUT_MS, type EventOf, type NextEventOptions } from './event-log.js';
export type {
  CustomerCreatedEvent,
  CustomerDeletedEvent,
  CustomerEvent,
  CustomerEventListener,
  CustomerEventType,
  CustomerField,
  CustomerUpdatedEvent,
} from '@customers-api/core';

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

// Forcing responses and overrides, typed from openapi.yaml
export type { ForcedResponse, ForcedStatus, ForcedSuccessStatus, OperationId } from '@customers-api/core';
export type {
  DocumentedStatus,
  OperationForcedResponse,
  OperationResponse,
  PathParams,
  QueryParams,
  RequestBody,
  ResponseBody,
  SuccessStatus,
} from './operation-types.js';
export type { OverrideInfo, OverrideReply, OverrideResolver } from './overrides.js';

// The API's shapes (generated from openapi.yaml)
export type { Address, Customer, CustomerCreate, CustomerList, CustomerUpdate, ErrorBody, Status } from '@customers-api/core';
export type { ApiErrorBody, components, operations, paths } from '@customers-api/sdk';
