// Client
export { CustomersClient, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './client';
export type { ClientOptions, Fetch, FetchOptions, RequestOptions } from './client';
export { VERSION } from './version';
export { API_VERSION } from './generated/api-version';

// Resources
export { Customers } from './resources/customers';
export type { CreateOptions } from './resources/customers';
export type { CustomerListParams } from './resources/customer-list-params';
export type {
  Address,
  Customer,
  CustomerCreate,
  CustomerLanguage,
  CustomerStatus,
  CustomerUpdate,
  CustomerUpdateFields,
} from './resources/customer-types';
export { Webhooks } from './resources/webhooks';
export { WebhookEndpoints } from './resources/webhook-endpoints';
export { Events } from './resources/events';
export { TestClocks, type TestClock, type TestClockChange } from './resources/test-clock';
export { TestData } from './resources/test-data';
export type { TestDataWipe } from './resources/test-data';
export type {
  CreatedWebhookEndpoint,
  EventListParams,
  EventType,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointListParams,
  WebhookEndpointUpdate,
  WebhookEndpointUpdateFields,
  WebhookReplay,
  WebhookReplayResult,
  WebhookSecretRotation,
} from './resources/webhook-endpoint-types';

// Webhooks: the verifier (loaded on first use) and the change events
export { verifyWebhook } from './webhooks/verify-webhook-lazy';
export type { VerifyWebhookOptions, WebhookBody } from './webhooks/check-webhook';
export type { WebhookRequestHeaders } from './webhooks/webhook-headers';
export type { WebhookSecret } from './webhooks/webhook-secret';
export type {
  CustomerCreatedEvent,
  CustomerDeletedEvent,
  CustomerEvent,
  CustomerEventType,
  CustomerField,
  CustomerUpdatedEvent,
  DeletedCustomer,
} from './webhooks/customer-event';

// Results, pages, raw responses and logging
export { APIPromise } from './core/api-promise';
export type { Result, WithResponse } from './core/api-promise';
export { CursorPage, PagePromise } from './core/pagination';
export type { CursorPageBody, NextPageParams } from './core/pagination';
export type { DeprecationNotice, LogEvent, Logger } from './core/logger';
export type { AttemptInfo, ClientHooks, RetryEvent } from './core/hooks';
export type { RateLimitState } from './core/rate-limit';

// Errors
export {
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  CustomersApiError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  UnexpectedStatusError,
  UnsupportedMediaTypeError,
  UserAbortError,
  WebhookVerificationError,
} from './core/errors';
export type {
  ApiCallError,
  ApiErrorBody,
  ErrorDetails,
  ErrorResponseBody,
  WebhookVerificationReason,
} from './core/errors';
export type { KnownClientErrorStatus, ServerErrorStatus, UnexpectedStatus } from './core/status';

// Generated OpenAPI types (other packages import them from here)
export type { components, operations, paths } from './generated/openapi';
