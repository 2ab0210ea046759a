import { CUSTOMER_EVENT_TYPES } from '../events/customer-change.js';
import { normalizeWebhookUrl, webhookUrlProblem } from '../events/webhook-url.js';
import { errors } from '../errors/registry.js';
import type { CustomerEventType } from '../types.js';

/** openapi.yaml: a seller may register 10 webhook endpoints unless the operator sets another cap for it. */
export const DEFAULT_WEBHOOK_ENDPOINT_LIMIT = 10;

/** An endpoint's description: at most 200 characters. */
export const DESCRIPTION_MAX_LENGTH = 200;

/** C0/C1 controls, DEL and the bidirectional formatting characters: a description shows as it reads. */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What is wrong with a description (naming `description`), or undefined: at most 200 characters of text without
 * control or bidirectional formatting characters; '' is none.
 *
 * @example
 * descriptionProblem('CRM sync'); // undefined
 */
export function descriptionProblem(description: string): string | undefined {
  if ([...description].length > DESCRIPTION_MAX_LENGTH) return `description must be at most ${DESCRIPTION_MAX_LENGTH} characters`;
  if (FORBIDDEN.test(description)) return 'description must not contain control or bidirectional formatting characters';
  return undefined;
}

/**
 * The event types asked for, in the spec's order and without repeats (every type when omitted).
 *
 * @example
 * eventTypes(['customer.deleted', 'customer.created']); // ['customer.created', 'customer.deleted']
 */
export function eventTypes(events: readonly string[] | undefined): CustomerEventType[] {
  if (events === undefined) return [...CUSTOMER_EVENT_TYPES];
  return CUSTOMER_EVENT_TYPES.filter((type) => events.includes(type));
}

/**
 * The normalized URL of an endpoint, or a 400 naming `url` (core's webhook URL rules).
 *
 * @example
 * endpointUrl('HTTPS://CRM.example.com/hooks', { allowPrivate: false }); // 'https://crm.example.com/hooks'
 */
export function endpointUrl(url: string, options: { allowPrivate: boolean }): string {
  const problem = webhookUrlProblem(url, options);
  if (problem) throw errors.badRequest(problem, 'url');
  return normalizeWebhookUrl(url);
}

/**
 * An endpoint's API version, or a 400 naming `api_version` and listing the versions it may be pinned to.
 *
 * @example
 * endpointApiVersion('2026-11-26', ['2026-11-26']); // '2026-11-26'
 */
export function endpointApiVersion(version: string, open: readonly string[]): string {
  if (!open.includes(version)) throw errors.badRequest(`api_version must be one of: ${open.join(', ')}`, 'api_version');
  return version;
}

/** The description, or a 400 naming it. */
export function endpointDescription(description: string): string {
  const problem = descriptionProblem(description);
  if (problem) throw errors.badRequest(problem, 'description');
  return description;
}

/**
 * The message of a URL the seller already has an endpoint at (every host: the API's and the dashboard's 409).
 *
 * @example
 * duplicateUrlMessage('https://crm.example.com/hooks');
 */
export function duplicateUrlMessage(url: string): string {
  return `url ${url} already has a webhook endpoint in this account; edit that one instead`;
}

/**
 * The message of a create past the seller's cap (every host: the API's and the dashboard's 403).
 *
 * @example
 * endpointLimitMessage(10);
 */
export function endpointLimitMessage(limit: number): string {
  return `Webhook endpoint limit reached: this account may have at most ${limit} webhook ${limit === 1 ? 'endpoint' : 'endpoints'}; delete one first, or ask the operator to raise the limit`;
}
