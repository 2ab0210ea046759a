import { CUSTOMER_EVENT_TYPES, errors, webhookUrlProblem, type CustomerEventType } from '@customers-api/core';

/** What "register a webhook endpoint" asks for, once checked. */
export interface NewWebhookEndpoint {
  url: string;
  events: CustomerEventType[];
}

const ALLOWED = new Set(['url', 'events']);

/**
 * The body of "register a webhook endpoint": `url` (core's webhook URL rule; private and loopback addresses
 * only when the server runs with `--allow-private-webhooks`) and optional `events` (a non-empty list of distinct
 * event types, all three when omitted, returned in openapi.yaml's order). Throws core's 400 naming the property.
 *
 * @example
 * parseNewWebhookEndpoint({ url: 'https://shop.example.com/hooks' }, { allowPrivate: false });
 * // { url: 'https://shop.example.com/hooks', events: ['customer.created', 'customer.updated', 'customer.deleted'] }
 */
export function parseNewWebhookEndpoint(body: unknown, options: { allowPrivate: boolean }): NewWebhookEndpoint {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (!ALLOWED.has(property)) throw errors.badRequest(`${property} is not an allowed property`);
  }
  if (input.url === undefined || input.url === null) throw errors.badRequest('url is required');
  if (typeof input.url !== 'string') throw errors.badRequest('url must be a string');
  const problem = webhookUrlProblem(input.url, options);
  if (problem) throw errors.badRequest(problem);
  return { url: input.url, events: parseEvents(input.events) };
}

function parseEvents(value: unknown): CustomerEventType[] {
  if (value === undefined) return [...CUSTOMER_EVENT_TYPES];
  if (!Array.isArray(value)) throw errors.badRequest('events must be an array of event types');
  if (value.length === 0) throw errors.badRequest('events must list at least one event type');
  const chosen = new Set<string>();
  value.forEach((type: unknown, index) => {
    if (typeof type !== 'string' || !(CUSTOMER_EVENT_TYPES as readonly string[]).includes(type)) {
      throw errors.badRequest(`events[${index}] must be one of ${CUSTOMER_EVENT_TYPES.join(', ')}`);
    }
    if (chosen.has(type)) throw errors.badRequest(`events[${index}] repeats ${type}`);
    chosen.add(type);
  });
  return CUSTOMER_EVENT_TYPES.filter((type) => chosen.has(type));
}
