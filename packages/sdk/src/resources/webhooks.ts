import type { CustomerEvent } from '../webhooks/customer-event';
import type { VerifyWebhookOptions, WebhookBody } from '../webhooks/check-webhook';
import { verifyWebhook } from '../webhooks/verify-webhook-lazy';
import type { WebhookRequestHeaders } from '../webhooks/webhook-headers';
import type { WebhookSecret } from '../webhooks/webhook-secret';

/** Verify the change events the API sends to your endpoints. Reach it as `client.webhooks`. */
export class Webhooks {
  // Private: the secret never shows up in console.log(client) or JSON.stringify.
  readonly #secret: WebhookSecret | undefined;

  /** @internal Use `client.webhooks`. */
  constructor(secret: WebhookSecret | undefined) {
    this.#secret = secret;
  }

  /**
   * Verifies a webhook request (signature in constant time, timestamp within 5 minutes) and returns its event.
   * `secret` defaults to the client's `webhookSecret` option (else `CUSTOMERS_API_WEBHOOK_SECRET`). Pass the raw
   * body, before any JSON parsing.
   *
   * @throws WebhookVerificationError when any check fails (`reason` says which).
   * @example
   * const client = new CustomersClient({ webhookSecret: process.env.WEBHOOK_SECRET });
   * const event = await client.webhooks.verify(await request.text(), request.headers);
   * if (event.type === 'customer.updated') console.log(event.data.changed_fields);
   */
  verify(
    rawBody: WebhookBody,
    headers: WebhookRequestHeaders,
    secret?: WebhookSecret,
    options?: VerifyWebhookOptions,
  ): Promise<CustomerEvent> {
    return verifyWebhook(rawBody, headers, (secret ?? this.#secret)!, options);
  }
}
