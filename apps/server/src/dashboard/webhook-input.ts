import { errors } from '@customers-api/core';
import type { NewWebhookEndpoint } from '../webhooks/endpoints.js';

const ALLOWED = new Set(['url', 'events', 'api_version']);

/**
 * The JSON shape of "register a webhook endpoint": `url` a string, optional `events` an array of strings and
 * `api_version` a string, nothing else. The rules on their values (core's URL rule, known event types) are the endpoint repository's, which
 * names `url` or `events` the same way. Throws core's 400 naming the property.
 *
 * @example
 * parseNewWebhookEndpoint({ url: 'https://shop.example.com/hooks' }); // { url: 'https://shop.example.com/hooks' }
 */
export function parseNewWebhookEndpoint(body: unknown): NewWebhookEndpoint {
  const input = body as Record<string, unknown>;
  for (const property of Object.keys(input)) {
    if (!ALLOWED.has(property)) throw errors.badRequest(`${property} is not an allowed property`);
  }
  if (input.url === undefined || input.url === null) throw errors.badRequest('url is required');
  if (typeof input.url !== 'string') throw errors.badRequest('url must be a string');
  if (input.api_version !== undefined && typeof input.api_version !== 'string') throw errors.badRequest('api_version must be a string');
  const apiVersion = input.api_version === undefined ? {} : { apiVersion: input.api_version as string };
  if (input.events === undefined) return { url: input.url, ...apiVersion };
  if (!Array.isArray(input.events)) throw errors.badRequest('events must be an array of event types');
  const index = input.events.findIndex((type: unknown) => typeof type !== 'string');
  if (index !== -1) throw errors.badRequest(`events[${index}] must be a string`);
  return { url: input.url, events: input.events as string[], ...apiVersion };
}
