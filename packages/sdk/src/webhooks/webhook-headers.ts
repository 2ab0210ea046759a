import { Refusal } from './refusal';

/**
 * The request headers, as any framework gives them: a `Headers` (fetch, Bun, Deno, Hono, Next.js route
 * handlers) or a plain object such as Node's `IncomingHttpHeaders` (`req.headers` of node:http, Express, Fastify),
 * whose values may be `string[]`. Names are matched case-insensitively.
 */
export type WebhookRequestHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

/** The three Standard Webhooks headers, read from any {@link WebhookRequestHeaders}. */
export type WebhookHeaderName = 'webhook-id' | 'webhook-timestamp' | 'webhook-signature';

/**
 * The value of one webhook header; throws a `missing_header` or `invalid_header` {@link Refusal}.
 * Repeated `webhook-signature` values are joined (each may hold signatures); a repeated id or timestamp is refused.
 */
export function readWebhookHeader(headers: WebhookRequestHeaders, name: WebhookHeaderName): string {
  let value: string | readonly string[] | null | undefined;
  if (typeof headers?.get === 'function') {
    value = (headers as { get(name: string): string | null }).get(name);
  } else if (headers && typeof headers === 'object') {
    for (const key of Object.keys(headers)) {
      if (key.toLowerCase() === name) value = (headers as Record<string, string | readonly string[] | undefined>)[key];
    }
  }
  if (Array.isArray(value)) {
    if (name !== 'webhook-signature' && value.length > 1) {
      throw new Refusal('invalid_header', `The ${name} header was sent ${value.length} times; a webhook request has exactly one.`);
    }
    value = value.join(' ');
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Refusal(
      'missing_header',
      `The ${name} header is missing: a webhook from the Customers API has webhook-id, webhook-timestamp and webhook-signature (pass the request's headers, unchanged by any proxy).`,
    );
  }
  return value.trim();
}
