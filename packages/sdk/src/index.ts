// Client
export { CustomersClient, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS } from './client';
export type { ClientOptions, Fetch, RequestOptions } from './client';
export { VERSION } from './version';

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

// Results, pages, raw responses and logging
export { APIPromise } from './core/api-promise';
export type { Result, WithResponse } from './core/api-promise';
export { CursorPage, PagePromise } from './core/pagination';
export type { CursorPageBody, NextPageParams } from './core/pagination';
export type { LogEvent, Logger } from './core/logger';
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
} from './core/errors';
export type { ApiCallError, ApiErrorBody, ErrorDetails, ErrorResponseBody } from './core/errors';
export type { KnownClientErrorStatus, ServerErrorStatus, UnexpectedStatus } from './core/status';

// Generated OpenAPI types (other packages import them from here)
export type { components, operations, paths } from './generated/openapi';
