import type { components, operations } from '../generated/openapi';
import { withIsoDates } from './customer-list-params';

// Named types for the webhook-endpoint and event schemas (interfaces, so hovers and errors name them).
type Schemas = components['schemas'];
type WebhookEndpointSchema = Schemas['WebhookEndpointFields'];
type WebhookEndpointCreateSchema = Schemas['WebhookEndpointCreate'];
type WebhookEndpointUpdateSchema = Schemas['WebhookEndpointUpdate'];
type WebhookReplaySchema = Schemas['WebhookReplay'];
type WebhookReplayResultSchema = Schemas['WebhookReplayResult'];
type WebhookSecretRotationSchema = Schemas['WebhookSecretRotation'];

/** `customer.created`, `customer.updated` or `customer.deleted`. */
export type EventType = Schemas['EventType'];

/** A webhook endpoint as the API returns it: never its secret. */
export interface WebhookEndpoint extends WebhookEndpointSchema {}

/** The answer of create and rotate: the endpoint with its `whsec_` signing secret, shown this once. */
export interface CreatedWebhookEndpoint extends WebhookEndpoint {
  secret: string;
}

/** The body of a create: `url` is required; `events` defaults to every type. */
export interface WebhookEndpointCreate extends WebhookEndpointCreateSchema {}

/** The properties a partial update may set (at least one). */
export interface WebhookEndpointUpdateFields extends WebhookEndpointUpdateSchema {}

/** `T` with at least one of its properties given. */
type AtLeastOne<T> = { [K in keyof T]-?: Required<Pick<T, K>> & Partial<T> }[keyof T];

/** The body of a partial update: at least one property (`update(id, {})` does not compile). */
export type WebhookEndpointUpdate = AtLeastOne<WebhookEndpointUpdateFields>;

/** The optional body of a secret rotation. */
export interface WebhookSecretRotation extends WebhookSecretRotationSchema {}

/** Which events a replay sends again. */
export interface WebhookReplay extends WebhookReplaySchema {}

/** How many events a replay queued, and the cursor for the rest. */
export interface WebhookReplayResult extends WebhookReplayResultSchema {}

/** The query of `GET /api/webhook_endpoints`. */
export type WebhookEndpointListParams = NonNullable<operations['listWebhookEndpoints']['parameters']['query']>;

type EventListQuery = NonNullable<operations['listEvents']['parameters']['query']>;

/**
 * Filters of {@link Events.list}: the query of `GET /api/events`, where the date-time bounds may be `Date`s.
 *
 * @example
 * const params: EventListParams = { undelivered_to: endpointId, created_after: new Date(Date.now() - 3_600_000) };
 */
export interface EventListParams extends Omit<EventListQuery, 'created_after' | 'created_before'> {
  created_after?: string | Date | undefined;
  created_before?: string | Date | undefined;
}

/** @internal The query the client sends: `Date`s as ISO strings. */
export const eventListQuery: (params: EventListParams) => EventListQuery = withIsoDates;
