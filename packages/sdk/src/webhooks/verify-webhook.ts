import { checkWebhook, type VerifyWebhookOptions, type WebhookBody } from './check-webhook';
import type { CustomerEvent } from './customer-event';
import { eventOrThrow } from './event-or-throw';
import type { WebhookRequestHeaders } from './webhook-headers';
import type { WebhookSecret } from './webhook-secret';

/**
 * Verifies a webhook request from the Customers API (Standard Webhooks) and returns its event: the
 * `webhook-signature` must hold a `v1` signature that matches the raw body with the secret (or one of the
 * secrets, during a rotation), compared in constant time, and `webhook-timestamp` must be within 5 minutes of now
 * either way. Web Crypto only: runs in Node, Bun, Deno, browsers and edge runtimes.
 *
 * Pass the body **as received**, before any JSON parsing: re-serializing a parsed body changes the bytes.
 *
 * @throws WebhookVerificationError when a check fails (`reason` says which); ConfigurationError for a bad option.
 * @example
 * import { verifyWebhook } from '@customers-api/sdk/webhooks';
 *
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'customer.updated' && event.data.changed_fields.includes('status')) {
 *   await applyStatus(event.data.customer.id, event.data.customer.status);
 * }
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookRequestHeaders,
  secret: WebhookSecret,
  options?: VerifyWebhookOptions,
): Promise<CustomerEvent> {
  return eventOrThrow(await checkWebhook(rawBody, headers, secret, options));
}
