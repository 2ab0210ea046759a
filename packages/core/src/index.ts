// Shapes, generated from openapi.yaml
export type {
  Address,
  Customer,
  CustomerCreate,
  CustomerUpdate,
  CustomerList,
  CustomerCreatedEvent,
  CustomerDeletedEvent,
  CustomerEvent,
  CustomerEventType,
  CustomerField,
  CustomerUpdatedEvent,
  ErrorBody,
  SellerContext,
  Status,
  CreatedWebhookEndpoint,
  EventList,
  TestDataWipe,
  TestClock,
  TestClockChange,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookReplay,
  WebhookReplayResult,
  WebhookSecretRotation,
} from './types.js';

// Errors: one registry, one error type
export { ApiError, isApiError, REASON_PHRASES, type ErrorStatus } from './errors/api-error.js';
export { errors, MESSAGES, toApiError } from './errors/registry.js';

// Validation compiled from openapi.yaml
export {
  canonicalCustomerId,
  isIdempotencyKey,
  isRequestId,
  parseCustomerCreate,
  parseCustomerUpdate,
} from './validation/validate.js';

// Business rules
export {
  createCustomerService,
  type CreateOptions,
  type CreateOutcome,
  type CustomerService,
  type CustomerServiceOptions,
  type PreReadPage,
} from './customers/customer-service.js';
export { planList, type ListPlan } from './customers/list-plan.js';
export { buildCustomer, type NewCustomerFields } from './customers/build-customer.js';
export { applyCustomerUpdate } from './customers/apply-update.js';
export { emailKey } from './customers/email.js';
export { createMonotonicClock, type Clock } from './customers/clock.js';
export { uuidV7 } from './customers/uuid-v7.js';
export { fingerprintBody, IDEMPOTENCY_TTL_MS } from './customers/idempotency.js';

// Storage
export type {
  CustomerStore,
  IdempotencyRecord,
  InsertOptions,
  InsertResult,
  PageRequest,
  UpdateResult,
} from './store.js';
export type { ListPosition } from './customers/cursor.js';
export { parseListQuery, DEFAULT_PAGE_SIZE, type ListQuery } from './validation/list-query.js';
export { isLive, isMode, tenantKey, tenantOf, tenantOfCustomer, type Mode, type Tenant } from './tenancy/tenant.js';
export { memoryTestData, wipeTestData, type TestDataStore } from './tenancy/test-data.js';
export {
  changeTestClock,
  mockTestClock,
  readTestClock,
  testClockNow,
  testClockTimestamp,
  MAX_TEST_CLOCK_ADVANCE_MS,
  type TestClockDoor,
} from './tenancy/test-clock.js';
export { MemoryCustomerStore, type ChangeListener, type MemoryCustomerStoreOptions } from './store/memory-store.js';

// Change events: what stores record, the events built from it, Standard Webhooks signatures, delivery rules
export {
  changedFields,
  CUSTOMER_EVENT_TYPES,
  CUSTOMER_FIELDS,
  customerEvent,
  isEventId,
  newEventId,
  type CustomerChange,
} from './events/customer-change.js';
export {
  generateWebhookSecret,
  isWebhookSecret,
  signedWebhookText,
  signWebhook,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SECRET_ROTATION_OVERLAP_MS,
  webhookHeaders,
  webhookSecretBytes,
  webhookSignature,
  type SignedContent,
  type WebhookHeaders,
  type WebhookSigner,
} from './events/webhook-signature.js';
export {
  isAcknowledged,
  nextRetryDelay,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_EVENT_RETENTION_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_TIMEOUT_MS,
} from './events/delivery-policy.js';
export { isPublicAddress, normalizeWebhookUrl, webhookUrlProblem, type WebhookUrlOptions } from './events/webhook-url.js';

// Webhook endpoints and events of the public API: the rules once, the storage interface, the memory store
export {
  createWebhookService,
  WEBHOOK_REPLAY_LIMIT,
  type EndpointCreateOptions,
  type WebhookService,
  type WebhookServiceOptions,
} from './webhooks/webhook-service.js';
export {
  DEFAULT_WEBHOOK_ENDPOINT_LIMIT,
  DESCRIPTION_MAX_LENGTH,
  descriptionProblem,
  duplicateUrlMessage,
  endpointLimitMessage,
  eventTypes,
} from './webhooks/endpoint-rules.js';
export { endpointBody } from './webhooks/endpoint-shape.js';
export { canonicalEndpointId } from './webhooks/webhook-input.js';
export type {
  EndpointInsertResult,
  EndpointPageRequest,
  EndpointUpdateResult,
  EventPageRequest,
  ReplayRequest,
  ReplayResult,
  StoredWebhookEndpoint,
  WebhookEndpointChanges,
  WebhookStore,
} from './webhooks/webhook-store.js';
export { MemoryWebhookStore, type DueDelivery, type MemoryDeliveryState } from './store/memory-webhook-store.js';

// API keys and authentication
export {
  API_KEY_MODES,
  API_KEY_PATTERN,
  apiKeyDisplayPrefix,
  apiKeyKindFor,
  apiKeyPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyModeOf,
  parseApiKey,
  type ApiKeyKind,
  type ApiKeyMode,
  type ApiKeyType,
} from './auth/api-key.js';
export { readApiKey, type HeaderReader } from './auth/read-api-key.js';
export { SCOPES, assertScope, missingScope, parseScopeList, type Scope, type ScopedOperation } from './auth/scopes.js';
export {
  authenticate,
  authenticateAndList,
  authenticateAndRead,
  isKeyUsable,
  type KeyAndCustomerLookup,
  type KeyAndPageLookup,
  type KeyLifecycle,
  type KeyLookup,
} from './auth/authenticate.js';
export { MemoryKeyRegistry } from './auth/memory-key-registry.js';

// The HTTP contract once: openapi.yaml's operations bound to the service, routing, and the whole API as one function
export {
  API_RESPONSE_HEADERS,
  OPERATION_IDS,
  OPERATIONS,
  pathFor,
  runOperation,
  type Operation,
  type OperationId,
  type OperationInput,
  type OperationResult,
  type PreRead,
} from './http/operations.js';
export {
  authenticateOperation,
  type Authentication,
  type KeyLookups,
} from './http/authenticate-operation.js';
export { apiPaths, routeRequest, type RouteMatch } from './http/router.js';
export { createApiHandler, errorHeaders, type ApiHandlerOptions } from './http/api-handler.js';
export type { ApiRequest, ApiResponse } from './http/types.js';
export { splitRequestTarget, type RequestTarget } from './http/request-target.js';
export { BODY_LIMIT_BYTES, isJsonContentType, readJsonBody } from './http/read-json-body.js';
export { clientRequestId, newRequestId, resolveRequestId } from './http/request-id.js';
export { missingHostRefusal, parserRefusal, refusedRequestAnswer, type RefusedRequestAnswer } from './http/refused-request.js';

// API versions: the dated versions of openapi.yaml and the `Customers-Version` header rule
export {
  API_VERSION_HEADER,
  API_VERSIONS,
  LATEST_API_VERSION,
  apiVersionHeaders,
  openApiVersions,
  resolveApiVersion,
  utcDate,
  type ApiVersion,
  type ApiVersionResolution,
} from './versions/api-version.js';
export {
  API_CHANGELOG_URL,
  API_VERSIONING,
  createApiVersioning,
  deprecationHeaders,
  downgradeErrorMessage,
  downgradeEvent,
  downgradeResponse,
  pinnedVersion,
  upgradeRequest,
  type ApiVersioning,
  type VersionChange,
} from './versions/version-change.js';
export { VERSION_CHANGES } from './versions/changes.js';
export { eventInVersion, type EventVersionOptions, type VersionedEvent } from './versions/event-version.js';

// Rate limits: one interface the hosts implement, the draft's headers, the seller check
export type { RateLimitDecision, RateLimiter } from './rate-limit/rate-limiter.js';
export {
  createMemoryRateLimiter,
  type MemoryRateLimiter,
  type MemoryRateLimiterOptions,
} from './rate-limit/memory-rate-limiter.js';
export { rateLimitHeaders } from './rate-limit/headers.js';
export {
  FAILED_AUTH_LIMIT,
  FAILED_AUTH_POLICY,
  FAILED_AUTH_WINDOW_SECONDS,
  limiterAddress,
  limitFailedAuthentication,
} from './rate-limit/failed-authentication.js';
export { checkRateLimit, SELLER_POLICY } from './rate-limit/check-rate-limit.js';

// Mocks: the stateful mock engine the MSW handlers and the HTTP mock host (sellers, seeds, forced answers)
export { createMockApi, type MockApi, type MockApiOptions, type MockRequest } from './mock/mock-api.js';
export { createMockClock, type ClockState, type MockClock, type MockClockOptions } from './mock/mock-clock.js';
export {
  createRequestJournal,
  DEFAULT_JOURNAL_MEMORY_BYTES,
  DEFAULT_JOURNAL_SIZE,
  JOURNAL_BODY_LIMIT_BYTES,
  journalBody,
  journalEntryBytes,
  journalHeader,
  KEY_PREFIX_LENGTH,
  REDACTED,
  type JournalEntry,
  type JournalFilter,
  type JournalPage,
  type JournalRecord,
  type JournalUsage,
  type RequestJournal,
} from './mock/request-journal.js';
export type { CustomerEventListener } from './mock/mock-events.js';
export {
  createSellerDirectory,
  DEFAULT_CUSTOMER_LIMIT,
  type KeySeed,
  type KeySeedKind,
  type KeySeedLifecycle,
  type MockSeller,
  type SellerDirectory,
  type SellerDirectoryOptions,
  type SellerRef,
  type SellerSeed,
} from './mock/sellers.js';
export { applySeeds, checkSeeds, SeedError, type CustomerSeed } from './mock/seed.js';
export {
  checkForced,
  FORCED_STATUSES,
  ForcedResponses,
  type ForcedResponse,
  type ForcedStatus,
  type ForcedSuccessStatus,
} from './mock/forced-responses.js';
export { forcedError, type ForcedErrorContext } from './mock/forced-error.js';
export {
  forcedAnswer,
  givenAnswer,
  NETWORK_ERROR,
  type ForcedAnswerOptions,
  type MockAnswer,
} from './mock/forced-answer.js';
export { operationFor } from './mock/operation.js';
