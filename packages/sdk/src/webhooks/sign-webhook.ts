import { ConfigurationError } from '../core/errors';
import { bodyBytes, v1Signature } from './check-webhook';
import type { CustomerEvent } from './customer-event';
import { Refusal } from './refusal';
import { webhookKeys } from './webhook-secret';

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /** The signing time: a `Date`, or whole seconds since the Unix epoch (as the header carries it). Default: now. */
  timestamp?: Date | number | undefined;
  /** The `webhook-id`; default the event's `id`, else a random `msg_` id. */
  id?: string | undefined;
}

/** A webhook request as the Customers API would send it: the three Standard Webhooks headers and the raw body. */
export interface SignedWebhook {
  headers: {
    'content-type': 'application/json';
    'webhook-id': string;
    'webhook-timestamp': string;
    'webhook-signature': string;
  };
  /** The raw body: the payload's JSON, or the string given. */
  body: string;
}

/**
 * Signs a payload as the Customers API signs its webhook requests (Standard Webhooks, `v1` HMAC-SHA256 with the
 * endpoint's `whsec_` secret), so that you can unit-test your receiver without the API or a mock running:
 * {@link verifyWebhook} and every Standard Webhooks library accept what it returns.
 *
 * @throws ConfigurationError for a secret that is not `whsec_` + base64, or a bad timestamp.
 * @example
 * import { signWebhook } from '@customers-api/sdk/webhooks';
 *
 * const { headers, body } = await signWebhook(event, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
 * const response = await app.request('/webhooks', { method: 'POST', headers, body });
 */
export async function signWebhook(
  payload: CustomerEvent | Record<string, unknown> | string,
  secret: string,
  options: SignWebhookOptions = {},
): Promise<SignedWebhook> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const eventId = typeof payload === 'object' && payload !== null && typeof payload.id === 'string' ? payload.id : undefined;
  const id = options.id ?? eventId ?? `msg_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
  const at = options.timestamp ?? new Date();
  const seconds = at instanceof Date ? Math.floor(at.getTime() / 1000) : at;
  if (!(Number.isSafeInteger(seconds) && seconds >= 0)) {
    throw new ConfigurationError(`timestamp must be a valid Date or whole seconds since the Unix epoch, got ${String(options.timestamp)}.`);
  }
  let key: CryptoKey;
  try {
    [key] = (await webhookKeys(secret)) as [CryptoKey];
  } catch (error) {
    if (error instanceof Refusal) throw new ConfigurationError(error.message);
    throw error;
  }
  const timestamp = String(seconds);
  const signature = await v1Signature(key, id, timestamp, bodyBytes(body));
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
    body,
  };
}
