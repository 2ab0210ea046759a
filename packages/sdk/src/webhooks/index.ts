// @customers-api/sdk/webhooks: the webhook verifier and the event types alone, without the client (for
// receivers that only verify, such as edge functions).
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS } from './check-webhook';
export { verifyWebhook } from './verify-webhook';
export { signWebhook } from './sign-webhook';
export type { SignedWebhook, SignWebhookOptions } from './sign-webhook';
export type { VerifyWebhookOptions, WebhookBody } from './check-webhook';
export type { WebhookRequestHeaders } from './webhook-headers';
export type { WebhookSecret } from './webhook-secret';
export { WebhookVerificationError } from '../core/errors';
export type { WebhookVerificationReason } from '../core/errors';
export type {
  CustomerCreatedEvent,
  CustomerDeletedEvent,
  CustomerEvent,
  CustomerEventType,
  CustomerField,
  CustomerUpdatedEvent,
  DeletedCustomer,
} from './customer-event';
export type { Address, Customer, CustomerLanguage, CustomerStatus } from '../resources/customer-types';
