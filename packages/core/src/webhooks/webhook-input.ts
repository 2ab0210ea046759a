import { errors } from '../errors/registry.js';
import * as generatedBodies from '../generated/validators.js';
import * as generatedQueries from '../generated/query-validators.js';
import type {
  CustomerEventType,
  WebhookEndpointCreate,
  WebhookEndpointUpdate,
  WebhookReplay,
  WebhookSecretRotation,
} from '../types.js';
import type { GeneratedValidator } from '../validation/ajv-error.js';
import { utcInstant } from '../validation/date-time.js';
import { DEFAULT_PAGE_SIZE, parseQueryWith } from '../validation/list-query.js';
import { checkBody } from '../validation/validate.js';
import { endpointApiVersion, endpointDescription, endpointUrl, eventTypes } from './endpoint-rules.js';
import type { WebhookEndpointChanges } from './webhook-store.js';

// Requests of the webhook-endpoint and event operations, checked against openapi.yaml's schemas (compiled by
// scripts/generate.mjs) and then by the rules a schema cannot say (URL, description, versions, instants).

const bodies = generatedBodies as unknown as Record<string, GeneratedValidator>;
const queries = generatedQueries as unknown as Record<string, GeneratedValidator>;
const validator = (from: Record<string, GeneratedValidator>, name: string): GeneratedValidator => from[name]!;

export interface RuleContext {
  allowPrivate: boolean;
  /** The versions an endpoint may be pinned to now. */
  openVersions: readonly string[];
}

export interface EndpointInput {
  url: string;
  events: CustomerEventType[];
  description: string;
  /** Undefined: the seller's pinned version. */
  apiVersion: string | undefined;
}

/**
 * The canonical (lowercase) form of a path id that is a UUID, or undefined (answered 404 like a missing endpoint).
 *
 * @example
 * canonicalEndpointId('7C1D2E3F-4A5B-4C6D-8E7F-9A0B1C2D3E4F'); // '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
 */
export function canonicalEndpointId(id: string): string | undefined {
  return validator(bodies, 'validateWebhookEndpointId')(id) ? canonicalUuid(id) : undefined;
}

/** A UUID as every store compares it: lowercase, without a `urn:uuid:` prefix. */
function canonicalUuid(id: string): string {
  // Stryker disable next-line Regex: the uuid format allows the prefix only at the start
  return id.toLowerCase().replace(/^urn:uuid:/, '');
}

/**
 * A create body: `WebhookEndpointCreate`, then the URL, description and version rules; a 400 naming the property.
 *
 * @example
 * parseEndpointCreate({ url: 'https://crm.example.com/hooks' }, { allowPrivate: false, openVersions: ['2026-11-26'] });
 */
export function parseEndpointCreate(body: unknown, context: RuleContext): EndpointInput {
  const input = checkBody<WebhookEndpointCreate>(validator(bodies, 'validateWebhookEndpointCreate'), body);
  return {
    url: endpointUrl(input.url, context),
    events: eventTypes(input.events),
    description: input.description === undefined ? '' : endpointDescription(input.description),
    apiVersion: input.api_version === undefined ? undefined : endpointApiVersion(input.api_version, context.openVersions),
  };
}

/**
 * An update body: `WebhookEndpointUpdate` (at least one property), then creation's rules; `disabled` becomes a
 * time (`now`) or null.
 *
 * @example
 * parseEndpointUpdate({ disabled: true }, { allowPrivate: false, openVersions, now }); // { disabledAt: now }
 */
export function parseEndpointUpdate(body: unknown, context: RuleContext & { now: string }): WebhookEndpointChanges {
  const input = checkBody<WebhookEndpointUpdate>(validator(bodies, 'validateWebhookEndpointUpdate'), body);
  const changes: WebhookEndpointChanges = {};
  if (input.url !== undefined) changes.url = endpointUrl(input.url, context);
  if (input.events !== undefined) changes.events = eventTypes(input.events);
  if (input.description !== undefined) changes.description = endpointDescription(input.description);
  if (input.api_version !== undefined) changes.apiVersion = endpointApiVersion(input.api_version, context.openVersions);
  if (input.disabled !== undefined) changes.disabledAt = input.disabled ? context.now : null;
  return changes;
}

/**
 * A rotation's optional body (undefined: none sent): how long the previous secret still signs.
 *
 * @example
 * parseRotation(undefined); // { overlapSeconds: 86400 }
 */
export function parseRotation(body: unknown): { overlapSeconds: number } {
  if (body === undefined) return { overlapSeconds: 86_400 };
  const input = checkBody<WebhookSecretRotation>(validator(bodies, 'validateWebhookSecretRotation'), body);
  return { overlapSeconds: input.overlap_seconds ?? 86_400 };
}

export interface ReplayInput {
  since: string;
  until: string | undefined;
  onlyUndelivered: boolean;
  cursor: string | undefined;
}

/**
 * A replay body: `WebhookReplay`, with `since` not after `now` and instants as UTC milliseconds.
 *
 * @example
 * parseReplay({ since: '2026-11-25T08:00:00Z', only_undelivered: true }, now);
 */
export function parseReplay(body: unknown, now: string): ReplayInput {
  const input = checkBody<WebhookReplay>(validator(bodies, 'validateWebhookReplay'), body);
  // Stryker disable next-line StringLiteral: the schema's date-time format refuses an out-of-range instant first, so the name is never shown
  const since = instant(input.since, 'since');
  if (since > now) throw errors.badRequest('since must not be in the future');
  return {
    since,
    // Stryker disable next-line StringLiteral: the schema's date-time format refuses an out-of-range instant first
    until: input.until === undefined ? undefined : instant(input.until, 'until'),
    onlyUndelivered: input.only_undelivered ?? false,
    cursor: input.cursor,
  };
}

function instant(value: string, name: string): string {
  const parsed = utcInstant(value);
  // Stryker disable next-line StringLiteral: unreachable message, the schema's date-time format refuses these instants first
  if (parsed === undefined) throw errors.badRequest(`${name} must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z`);
  return parsed;
}

/**
 * `GET /api/webhook_endpoints`' query.
 *
 * @example
 * parseEndpointsQuery('limit=5'); // { limit: 5, cursor: undefined }
 */
export function parseEndpointsQuery(rawQuery: string): { limit: number; cursor: string | undefined } {
  const query = parseQueryWith(validator(queries, 'validateListWebhookEndpointsQuery'), rawQuery);
  return { limit: (query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE, cursor: query.cursor as string | undefined };
}

export interface EventsPlan {
  limit: number;
  cursor: string | undefined;
  /** What a cursor is bound to. */
  filters: Record<string, string | undefined>;
  type: CustomerEventType | undefined;
  customerId: string | undefined;
  createdFrom: string | undefined;
  createdBefore: string | undefined;
  undeliveredTo: string | undefined;
}

/**
 * `GET /api/events`' query: every 400 of its parameters (the endpoint's existence is the service's check).
 *
 * @example
 * parseEventsQuery('type=customer.deleted&limit=50');
 */
export function parseEventsQuery(rawQuery: string): EventsPlan {
  const query = parseQueryWith(validator(queries, 'validateListEventsQuery'), rawQuery) as Record<string, string | number | undefined>;
  const text = (name: string) => query[name] as string | undefined;
  const customerId = text('customer_id') && canonicalUuid(text('customer_id')!);
  const undeliveredTo = text('undelivered_to') && canonicalUuid(text('undelivered_to')!);
  const createdFrom = text('created_after') && utcInstant(text('created_after')!);
  const createdBefore = text('created_before') && utcInstant(text('created_before')!);
  const type = text('type') as CustomerEventType | undefined;
  return {
    limit: (query.limit as number | undefined) ?? DEFAULT_PAGE_SIZE,
    cursor: text('cursor'),
    filters: { type, customer_id: customerId, created_after: createdFrom, created_before: createdBefore, undelivered_to: undeliveredTo },
    type,
    customerId,
    createdFrom,
    createdBefore,
    undeliveredTo,
  };
}
