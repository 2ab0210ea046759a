import { errors, webhookUrlProblem } from '@customers-api/core';
import { descriptionProblem } from '../webhooks/endpoint-description.js';
import type { EndpointEdit } from '../webhooks/endpoint-edits.js';
import { parseEventTypes, type NewWebhookEndpoint } from '../webhooks/endpoints.js';

const ALLOWED = new Set(['url', 'events', 'api_version', 'description']);
const EDITABLE = new Set(['url', 'events', 'description']);

/**
 * The JSON shape of "register a webhook endpoint": `url` a string, optional `events` an array of strings,
 * `api_version` and `description` strings, nothing else. The rules on their values (core's URL rule, known event types) are the endpoint repository's, which
 * names `url` or `events` the same way. Throws core's 400 naming the property.
 *
 * @example
 * parseNewWebhookEndpoint({ url: 'https://shop.example.com/hooks' }); // { url: 'https://shop.example.com/hooks' }
 */
export function parseNewWebhookEndpoint(body: unknown): NewWebhookEndpoint {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (!ALLOWED.has(property)) throw errors.badRequest(`${property} is not an allowed property`, property);
  }
  if (input.url === undefined || input.url === null) throw errors.badRequest('url is required', 'url');
  if (typeof input.url !== 'string') throw errors.badRequest('url must be a string', 'url');
  if (input.api_version !== undefined && typeof input.api_version !== 'string') throw errors.badRequest('api_version must be a string', 'api_version');
  const apiVersion = input.api_version === undefined ? {} : { apiVersion: input.api_version as string };
  return { url: input.url, ...eventsAndDescription(input), ...apiVersion };
}

/** `events` (an array of strings) and `description` (a string) when present; their values are the repository's to check. */
function eventsAndDescription(input: Record<string, unknown>): { events?: string[]; description?: string } {
  const parsed: { events?: string[]; description?: string } = {};
  if (input.events !== undefined) {
    if (!Array.isArray(input.events)) throw errors.badRequest('events must be an array of event types', 'events');
    const index = input.events.findIndex((type: unknown) => typeof type !== 'string');
    if (index !== -1) throw errors.badRequest(`events[${index}] must be a string`, 'events');
    parsed.events = input.events as string[];
  }
  if (input.description !== undefined) {
    if (typeof input.description !== 'string') throw errors.badRequest('description must be a string', 'description');
    parsed.description = input.description;
  }
  return parsed;
}

/**
 * The JSON shape of "edit a webhook endpoint": at least one of `url` (a string), `events` and `description`, as
 * on creation. Throws core's 400 naming the property.
 *
 * @example
 * parseEndpointEdit({ events: ['customer.deleted'] }); // { events: ['customer.deleted'] }
 */
export function parseEndpointEdit(body: unknown): EndpointEdit {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (!EDITABLE.has(property)) throw errors.badRequest(`${property} is not an allowed property`, property);
  }
  if (Object.keys(input).length === 0) throw errors.badRequest('body must name at least one of url, events, description');
  if (input.url !== undefined && typeof input.url !== 'string') throw errors.badRequest('url must be a string', 'url');
  return { ...(input.url === undefined ? {} : { url: input.url as string }), ...eventsAndDescription(input) };
}

/**
 * The values of a parsed create or edit under the URL, event-type and description rules, worded as the dashboard
 * has always worded them (core's service checks them again, in the public API's words, before it writes).
 * Throws core's 400 naming the property.
 *
 * @example
 * checkEndpointValues({ url: 'ftp://x.example/' }, { allowPrivate: false }); // throws "url must be an http or https URL"
 */
export function checkEndpointValues(input: EndpointEdit, { allowPrivate }: { allowPrivate: boolean }): void {
  const problems = [
    ['url', input.url === undefined ? undefined : webhookUrlProblem(input.url, { allowPrivate })],
    ['events', input.events === undefined ? undefined : eventTypesProblem(input.events)],
    ['description', input.description === undefined ? undefined : descriptionProblem(input.description)],
  ] as const;
  const [field, problem] = problems.find(([, found]) => found !== undefined) ?? [];
  if (problem) throw errors.badRequest(problem, field);
}

function eventTypesProblem(events: readonly string[]): string | undefined {
  const parsed = parseEventTypes(events);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** An ISO 8601 date-time with an offset: what `since` takes. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The body of "resend all failed since": `since`, an ISO 8601 date-time with its offset, not in the future.
 *
 * @example
 * parseResendFailed({ since: '2026-11-25T08:00:00Z' }, new Date()); // Date
 */
export function parseResendFailed(body: unknown, now: Date): Date {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (property !== 'since') throw errors.badRequest(`${property} is not an allowed property`, property);
  }
  if (input.since === undefined || input.since === null) throw errors.badRequest('since is required', 'since');
  if (typeof input.since !== 'string') throw errors.badRequest('since must be a string', 'since');
  const since = new Date(input.since);
  if (!DATE_TIME.test(input.since) || Number.isNaN(since.getTime())) {
    throw errors.badRequest('since must be an ISO 8601 date-time with its offset, e.g. 2026-11-25T08:00:00Z', 'since');
  }
  if (since.getTime() > now.getTime()) throw errors.badRequest('since must not be in the future', 'since');
  return since;
}
