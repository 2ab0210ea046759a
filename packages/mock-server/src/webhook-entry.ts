import { CUSTOMER_EVENT_TYPES, isWebhookSecret, normalizeWebhookUrl, webhookUrlProblem, type CustomerEventType } from '@customers-api/core';
import { EntryError, objectAt, sellerIdAt } from './entries.js';

/** A webhook endpoint as a seed file or the control API gives it; the mock fills in what is left out. */
export interface WebhookEndpointSeed {
  url: string;
  /** `whsec_` and base64; generated when omitted. */
  secret?: string;
  /** The event types to deliver; all when omitted. */
  events?: CustomerEventType[];
  /** Only this seller's events; every seller's when omitted. */
  sellerId?: string;
  /** The API version its events are written in; its seller's pinned version (else the latest) when omitted. */
  apiVersion?: string;
}

/** The entries of a webhook endpoint object. */
export const WEBHOOK_ENTRIES = ['url', 'secret', 'events', 'sellerId', 'apiVersion'] as const;
const ENTRIES = WEBHOOK_ENTRIES;

/**
 * A webhook endpoint entry (`at` names it, e.g. `seed.webhooks[0]` or `body`): `url` an http(s) URL (any
 * address: the mock runs next to its receivers), `secret` a `whsec_` secret, `events` distinct event types,
 * `sellerId` a UUID, `apiVersion` a `YYYY-MM-DD` date. The URL is kept normalized as the server stores it (core's
 * `normalizeWebhookUrl`: lower-case scheme and host, no default port, dot segments resolved), so listings match.
 * Whether the seller exists and the version is open is the caller's to check.
 *
 * @example
 * webhookEntryAt({ url: 'ftp://x' }, 'seed.webhooks[0]'); // EntryError: seed.webhooks[0].url: must be an http or https URL
 */
export function webhookEntryAt(value: unknown, at: string): WebhookEndpointSeed {
  const { url, secret, events, sellerId, apiVersion } = objectAt(value, at, ENTRIES);
  if (typeof url !== 'string') throw new EntryError(`${at}.url`, 'is required: an http or https URL');
  const problem = webhookUrlProblem(url, { allowPrivate: true });
  // Core's wording names `url`; here the entry's path does.
  if (problem) throw new EntryError(`${at}.url`, problem.replace(/^url /, ''));
  if (secret !== undefined && (typeof secret !== 'string' || !isWebhookSecret(secret))) {
    throw new EntryError(`${at}.secret`, 'must be whsec_ followed by base64, e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
  }
  const seller = sellerIdAt(sellerId, `${at}.sellerId`);
  if (apiVersion !== undefined && (typeof apiVersion !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(apiVersion))) {
    throw new EntryError(`${at}.apiVersion`, 'must be an API version, YYYY-MM-DD');
  }
  return {
    url: normalizeWebhookUrl(url),
    ...(secret !== undefined && { secret }),
    ...(events !== undefined && { events: eventTypesAt(events, `${at}.events`) }),
    ...(seller !== undefined && { sellerId: seller }),
    ...(apiVersion !== undefined && { apiVersion }),
  };
}

function eventTypesAt(value: unknown, at: string): CustomerEventType[] {
  if (!Array.isArray(value) || value.length === 0) throw new EntryError(at, `must be a non-empty array of ${CUSTOMER_EVENT_TYPES.join(', ')}`);
  value.forEach((type, i) => {
    if (!(CUSTOMER_EVENT_TYPES as readonly unknown[]).includes(type)) throw new EntryError(`${at}[${i}]`, `must be one of ${CUSTOMER_EVENT_TYPES.join(', ')}`);
    if (value.indexOf(type) !== i) throw new EntryError(`${at}[${i}]`, `is already listed at ${at}[${value.indexOf(type)}]`);
  });
  return value as CustomerEventType[];
}
