import { ConfigurationError, WebhookVerificationError } from '../core/errors';
import type { CustomerEvent } from './customer-event';
import type { WebhookCheck } from './refusal';

/** The event of a passed check; a refused one thrown as a `WebhookVerificationError` (a bad option: `ConfigurationError`). */
export function eventOrThrow(check: WebhookCheck): CustomerEvent {
  if (check.ok) return check.event;
  if (check.reason === 'invalid_option') throw new ConfigurationError(check.message);
  throw new WebhookVerificationError(check.message, { reason: check.reason, cause: check.cause });
}
