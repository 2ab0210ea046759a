import type { VerifyWebhookOptions, WebhookBody } from './check-webhook';
import type { CustomerEvent } from './customer-event';
import { eventOrThrow } from './event-or-throw';
import type { WebhookRequestHeaders } from './webhook-headers';
import type { WebhookSecret } from './webhook-secret';

/**
 * Verifies a webhook request from the Customers API (Standard Webhooks) and returns its event: a `v1` signature
 * in `webhook-signature` must match the raw body with the secret (or one of the secrets), compared in constant
 * time, and `webhook-timestamp` must be within 5 minutes of now. The checks load on first use, so they are not
 * part of the client's bundle; `@customers-api/sdk/webhooks` has the same function without the client.
 *
 * Pass the body **as received**, before any JSON parsing: re-serializing a parsed body changes the bytes.
 *
 * @throws WebhookVerificationError when a check fails (`reason` says which); ConfigurationError for a bad option.
 * @example
 * import { verifyWebhook } from '@customers-api/sdk';
 *
 * const event = await verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'customer.deleted') await forgetCustomer(event.data.customer.id);
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookRequestHeaders,
  secret: WebhookSecret,
  options?: VerifyWebhookOptions,
): Promise<CustomerEvent> {
  const { checkWebhook } = await import('./check-webhook');
  return eventOrThrow(await checkWebhook(rawBody, headers, secret, options));
}
