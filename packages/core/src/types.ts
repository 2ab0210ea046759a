import type { components } from '@customers-api/sdk';

/** The API's own shapes, taken from the types generated from openapi.yaml (never re-declared by hand). */
export type Customer = components['schemas']['Customer'];
export type CustomerCreate = components['schemas']['CustomerCreate'];
export type CustomerUpdate = components['schemas']['CustomerUpdate'];
export type Address = components['schemas']['Address'];
export type ErrorBody = components['schemas']['Error'];
export type Status = components['schemas']['Status'];
export type CustomerList = components['schemas']['CustomerList'];
export type CustomerEvent = components['schemas']['CustomerEvent'];
export type CustomerCreatedEvent = components['schemas']['CustomerCreatedEvent'];
export type CustomerUpdatedEvent = components['schemas']['CustomerUpdatedEvent'];
export type CustomerDeletedEvent = components['schemas']['CustomerDeletedEvent'];
export type CustomerEventType = CustomerEvent['type'];
export type CustomerField = components['schemas']['CustomerField'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type CreatedWebhookEndpoint = components['schemas']['CreatedWebhookEndpoint'];
export type WebhookEndpointList = components['schemas']['WebhookEndpointList'];
export type WebhookEndpointCreate = components['schemas']['WebhookEndpointCreate'];
export type WebhookEndpointUpdate = components['schemas']['WebhookEndpointUpdate'];
export type WebhookSecretRotation = components['schemas']['WebhookSecretRotation'];
export type WebhookReplay = components['schemas']['WebhookReplay'];
export type WebhookReplayResult = components['schemas']['WebhookReplayResult'];
export type EventList = components['schemas']['EventList'];
export type TestDataWipe = components['schemas']['TestDataWipe'];
export type TestClock = components['schemas']['TestClock'];
export type TestClockChange = components['schemas']['TestClockChange'];

/** Who is calling: the seller an API key belongs to, and that seller's plan limit. */
export interface SellerContext {
  sellerId: string;
  /** Maximum number of customers the seller's subscription plan allows. */
  customerLimit: number;
  /**
   * The seller's own rate limit in requests per window when it has one (0: not limited); otherwise the host's
   * default applies.
   */
  rateLimit?: number | null;
  /**
   * The API version the seller is pinned to: a request without `Customers-Version` is answered in it. Omitted or
   * null: the latest.
   */
  apiVersion?: string | null;
  /** How many webhook endpoints the seller may have when the operator set a cap for it; otherwise 10. */
  webhookEndpointLimit?: number | null;
  /** The id of the API key the request authenticated with, when the host knows it. */
  keyId?: string;
  /** Which of the seller's data the key acts on (issue 38); omitted: live. Read it through `keyModeOf`. */
  mode?: 'live' | 'test';
  /**
   * Test mode on a host with per-seller test clocks (the server): how far the seller's test clock is ahead of the
   * host's clock, read once per test-mode request. Omitted or 0: the host's clock. Never read in live mode.
   */
  testClockOffsetMs?: number;
  /**
   * The scopes the key was granted: null or omitted for a secret key (`sk_`), which holds every scope; the list for
   * a restricted key (`rk_`).
   */
  scopes?: readonly string[] | null;
}
